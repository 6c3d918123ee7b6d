/**
 * Perplexity Search API: POST https://api.perplexity.ai/search with `Authorization: Bearer …` and a JSON body
 * {query, max_results}. Ranked results (no generated answer) are `results[]` with
 * {title, url, snippet, date, last_updated}.
 */
import { endpoint, MAX_RESULTS, toHits, type SearchBackend } from './backend.js';
import { listField, parseJson, providerRequest } from './provider-http.js';

export const perplexity: SearchBackend = {
  name: 'perplexity',
  label: 'Perplexity',
  defaultBaseUrl: 'https://api.perplexity.ai',
  keyName: 'PERPLEXITY_API_KEY',
  async search(call) {
    const response = await providerRequest(perplexity, call, {
      method: 'POST',
      url: endpoint(call.baseUrl, '/search'),
      headers: { authorization: `Bearer ${call.apiKey ?? ''}` },
      json: { query: call.query, max_results: MAX_RESULTS },
    });
    const results = listField(perplexity, parseJson(perplexity, response), 'results');
    return toHits(perplexity, results.map((r) => ({ title: r.title, url: r.url, snippet: r.snippet })));
  },
};
