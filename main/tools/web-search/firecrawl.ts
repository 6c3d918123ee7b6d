/**
 * Firecrawl: POST https://api.firecrawl.dev/v1/search with `Authorization: Bearer fc-…` and a JSON body
 * {query, limit}. v1 answers {success: true, data: [{url, title, description}]}; the v2 layout
 * (data.web[]) is read too, so a silent server-side upgrade is not mistaken for a broken page.
 * `success: false` with a 200 is a provider error.
 */
import { endpoint, isRecord, MAX_RESULTS, searchError, shapeChanged, toHits, type SearchBackend } from './backend.js';
import { parseJson, providerRequest } from './provider-http.js';

export const firecrawl: SearchBackend = {
  name: 'firecrawl',
  label: 'Firecrawl',
  defaultBaseUrl: 'https://api.firecrawl.dev',
  keyName: 'FIRECRAWL_API_KEY',
  async search(call) {
    const response = await providerRequest(firecrawl, call, {
      method: 'POST',
      url: endpoint(call.baseUrl, '/v1/search'),
      headers: { authorization: `Bearer ${call.apiKey ?? ''}` },
      json: { query: call.query, limit: MAX_RESULTS },
    });
    const body = parseJson(firecrawl, response);
    if (!isRecord(body)) throw shapeChanged(firecrawl, 'the body is not a JSON object');
    if (body.success === false) {
      const detail = typeof body.error === 'string' ? body.error.slice(0, 300) : 'no reason given';
      throw searchError('provider_error', firecrawl, `Firecrawl reported a failed search: ${detail}`, { detail });
    }
    const list = Array.isArray(body.data) ? body.data : isRecord(body.data) && Array.isArray(body.data.web) ? body.data.web : undefined;
    if (list === undefined) throw shapeChanged(firecrawl, '`data` is neither a list nor {web: […]}');
    return toHits(firecrawl, list.filter(isRecord).map((r) => ({ title: r.title, url: r.url, snippet: r.description })));
  },
};
