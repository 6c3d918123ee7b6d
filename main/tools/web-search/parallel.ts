/**
 * Parallel Search (beta): POST https://api.parallel.ai/v1beta/search with the key in x-api-key and a JSON
 * body {objective, search_queries, max_results}. Results are `results[]` with {url, title, excerpts[]};
 * the excerpts, joined, are the snippet.
 */
import { endpoint, MAX_RESULTS, toHits, type SearchBackend } from './backend.js';
import { listField, parseJson, providerRequest } from './provider-http.js';

export const parallel: SearchBackend = {
  name: 'parallel',
  label: 'Parallel',
  defaultBaseUrl: 'https://api.parallel.ai',
  keyName: 'PARALLEL_API_KEY',
  async search(call) {
    const response = await providerRequest(parallel, call, {
      method: 'POST',
      url: endpoint(call.baseUrl, '/v1beta/search'),
      headers: { 'x-api-key': call.apiKey ?? '' },
      json: { objective: call.query, search_queries: [call.query], max_results: MAX_RESULTS },
    });
    const results = listField(parallel, parseJson(parallel, response), 'results');
    return toHits(parallel, results.map((r) => ({
      title: r.title,
      url: r.url,
      snippet: Array.isArray(r.excerpts) ? r.excerpts.filter((e) => typeof e === 'string').join(' … ') : undefined,
    })));
  },
};
