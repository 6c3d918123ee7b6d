/**
 * Exa: POST https://api.exa.ai/search with the key in x-api-key and a JSON body {query, type, numResults,
 * contents}. Results are `results[]` with {title, url, text?, highlights?, summary?}; we ask for a short
 * page text and use the first highlight, the summary or the text as the snippet, whichever exists.
 */
import { endpoint, MAX_RESULTS, toHits, type SearchBackend } from './backend.js';
import { listField, parseJson, providerRequest } from './provider-http.js';

export const exa: SearchBackend = {
  name: 'exa',
  label: 'Exa',
  defaultBaseUrl: 'https://api.exa.ai',
  keyName: 'EXA_API_KEY',
  async search(call) {
    const response = await providerRequest(exa, call, {
      method: 'POST',
      url: endpoint(call.baseUrl, '/search'),
      headers: { 'x-api-key': call.apiKey ?? '' },
      json: { query: call.query, type: 'auto', numResults: MAX_RESULTS, contents: { text: { maxCharacters: 500 } } },
    });
    const results = listField(exa, parseJson(exa, response), 'results');
    return toHits(exa, results.map((r) => ({
      title: r.title,
      url: r.url,
      snippet: firstText(Array.isArray(r.highlights) ? r.highlights[0] : undefined, r.summary, r.text),
    })));
  },
};

function firstText(...values: unknown[]): string {
  return (values.find((value) => typeof value === 'string' && value.trim() !== '') as string | undefined) ?? '';
}
