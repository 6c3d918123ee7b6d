/**
 * Tavily: POST https://api.tavily.com/search with `Authorization: Bearer tvly-…` and a JSON body
 * {query, max_results, search_depth}. Results are `results[]` with {title, url, content, score}.
 * The key goes in the header, not the body's legacy `api_key`: Net.Guard strips credential headers on a
 * cross-origin redirect, but a 307 would carry a body key along.
 */
import { endpoint, MAX_RESULTS, toHits, type SearchBackend } from './backend.js';
import { listField, parseJson, providerRequest } from './provider-http.js';

export const tavily: SearchBackend = {
  name: 'tavily',
  label: 'Tavily',
  defaultBaseUrl: 'https://api.tavily.com',
  keyName: 'TAVILY_API_KEY',
  async search(call) {
    const response = await providerRequest(tavily, call, {
      method: 'POST',
      url: endpoint(call.baseUrl, '/search'),
      headers: { authorization: `Bearer ${call.apiKey ?? ''}` },
      json: { query: call.query, max_results: MAX_RESULTS, search_depth: 'basic', include_answer: false },
    });
    const results = listField(tavily, parseJson(tavily, response), 'results');
    return toHits(tavily, results.map((r) => ({ title: r.title, url: r.url, snippet: r.content })));
  },
};
