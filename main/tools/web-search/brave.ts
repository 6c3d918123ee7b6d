/**
 * Brave Web Search API: GET https://api.search.brave.com/res/v1/web/search?q=…&count=…, key in the
 * X-Subscription-Token header. Web results are under `web.results[]` as {title, url, description}; the
 * description carries <strong> highlighting, which plainText strips. A query with no web results comes back
 * as a `type: "search"` answer without a `web` section.
 */
import { endpoint, isRecord, MAX_RESULTS, shapeChanged, toHits, type SearchBackend } from './backend.js';
import { parseJson, providerRequest } from './provider-http.js';

export const brave: SearchBackend = {
  name: 'brave',
  label: 'Brave Search',
  defaultBaseUrl: 'https://api.search.brave.com',
  keyName: 'BRAVE_API_KEY',
  async search(call) {
    const params = new URLSearchParams({ q: call.query, count: String(MAX_RESULTS) });
    const response = await providerRequest(brave, call, {
      method: 'GET',
      url: `${endpoint(call.baseUrl, '/res/v1/web/search')}?${params}`,
      headers: { 'x-subscription-token': call.apiKey ?? '' },
    });
    const body = parseJson(brave, response);
    if (!isRecord(body)) throw shapeChanged(brave, 'the body is not a JSON object');
    if (body.web === undefined) {
      if (body.type === 'search') return [];
      throw shapeChanged(brave, 'neither a `web` section nor `type: "search"`');
    }
    const results = isRecord(body.web) ? body.web.results : undefined;
    if (!Array.isArray(results)) throw shapeChanged(brave, '`web.results` is missing or not a list');
    return toHits(brave, results.filter(isRecord).map((r) => ({ title: r.title, url: r.url, snippet: r.description })));
  },
};
