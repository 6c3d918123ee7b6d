/**
 * DuckDuckGo, keyless: GET https://html.duckduckgo.com/html/?q=… and read the result list out of the HTML.
 * Each organic result is an `a.result__a` (title; href is a //duckduckgo.com/l/?uddg=<target> redirect or
 * the target itself) followed by a `.result__snippet`. Ads (`/y.js?ad_domain=…`) are skipped. A page with
 * `.no-results` is an empty search; a bot challenge (HTTP 202, the anomaly modal) is `rate_limited`; a page
 * with neither results nor either marker is `parser_changed`.
 */
import { decodeEntities } from '../../net/entities.js';
import { endpoint, searchError, shapeChanged, toHits, type SearchBackend } from './backend.js';
import { providerRequest } from './provider-http.js';

const RESULT_LINK = /<a\b([^>]*\bclass\s*=\s*["'][^"']*\bresult__a\b[^"']*["'][^>]*)>([\s\S]*?)<\/a\s*>/giu;
const SNIPPET = /<(a|div|td|span)\b[^>]*\bclass\s*=\s*["'][^"']*\bresult__snippet\b[^"']*["'][^>]*>([\s\S]*?)<\/\1\s*>/iu;
const HAS_RESULT_LINK = /\bclass\s*=\s*["'][^"']*\bresult__a\b/iu;
const NO_RESULTS = /\bclass\s*=\s*["'][^"']*\bno-results\b/iu;
const CHALLENGE = /anomaly-modal|challenge-form|bots use DuckDuckGo too/iu;

export const duckduckgo: SearchBackend = {
  name: 'duckduckgo',
  label: 'DuckDuckGo',
  defaultBaseUrl: 'https://html.duckduckgo.com',
  async search(call) {
    const response = await providerRequest(duckduckgo, call, {
      method: 'GET',
      url: `${endpoint(call.baseUrl, '/html/')}?${new URLSearchParams({ q: call.query })}`,
      accept: 'text/html',
    });
    const html = response.body.toString('utf8');
    // DuckDuckGo answers suspected bots with 202 and a challenge page instead of results.
    if (response.status === 202 || (CHALLENGE.test(html) && !HAS_RESULT_LINK.test(html))) {
      throw searchError('rate_limited', duckduckgo, `DuckDuckGo answered with a bot challenge (HTTP ${response.status}) instead of results.`, {
        status: response.status,
      });
    }
    return parseResults(html);
  },
};

/** Exported for the parser's own tests. */
export function parseResults(html: string) {
  const links = [...html.matchAll(RESULT_LINK)];
  if (links.length === 0) {
    if (NO_RESULTS.test(html)) return [];
    throw shapeChanged(duckduckgo, 'no `result__a` links and no `no-results` marker');
  }
  const raw: Array<{ title: string; url: string | undefined; snippet: string }> = [];
  links.forEach((link, index) => {
    const start = (link.index ?? 0) + link[0].length;
    const end = links[index + 1]?.index ?? html.length;
    const snippet = SNIPPET.exec(html.slice(start, end))?.[2] ?? '';
    const target = resultTarget(attribute(link[1], 'href'));
    if (target === null) return; // an ad
    raw.push({ title: link[2], url: target, snippet });
  });
  return toHits(duckduckgo, raw);
}

/** The real destination of a result link; null for ads; undefined when it is not a URL at all. */
function resultTarget(href: string | undefined): string | null | undefined {
  if (href === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(href.startsWith('//') ? `https:${href}` : href, 'https://duckduckgo.com/');
  } catch {
    return undefined;
  }
  if (url.hostname === 'duckduckgo.com' || url.hostname.endsWith('.duckduckgo.com')) {
    if (url.pathname === '/y.js') return null;
    if (url.pathname === '/l/') return url.searchParams.get('uddg') ?? undefined;
    return undefined;
  }
  return url.href;
}

function attribute(attributes: string, name: string): string | undefined {
  const found = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'iu').exec(attributes);
  return found ? decodeEntities(found[1] ?? found[2] ?? '') : undefined;
}
