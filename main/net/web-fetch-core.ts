import { bodyKind, decodeBody, parseMediaType, prettyJson } from './body-text.js';
import { guardedFetch, NET_DEFAULTS, type GuardedFetchOptions } from './guarded-fetch.js';
import { netError } from './net-errors.js';

export interface WebFetchInput {
  url: string;
}

/** What the composition root (and tests) may set; the numbers stay web_fetch's own. */
export type WebFetchDeps = Pick<GuardedFetchOptions, 'policy' | 'lookup' | 'ca' | 'signal' | 'userAgent'>;

export interface WebFetchResult {
  url: string;
  final_url: string;
  status: number;
  /** The media type the server declared (e.g. "text/html"), or the sniffed kind when it declared none. */
  content_type: string;
  text: string;
  /** True when the body passed 1,048,576 bytes and only its first part was read. */
  truncated: boolean;
}

/**
 * The logic behind the `web_fetch` tool (reference §2.13): Net.Guard fetch with a 1 MiB cap and 5 redirects,
 * then HTML → readable text, JSON laid out verbatim, other text as-is, binary refused.
 * Large pages are truncated rather than refused: for a model, the first megabyte of a page beats an error.
 */
export async function webFetch(input: WebFetchInput, deps: WebFetchDeps = {}): Promise<WebFetchResult> {
  const response = await guardedFetch(input.url, {
    ...deps,
    method: 'GET',
    maxBytes: NET_DEFAULTS.maxBytes,
    maxRedirects: NET_DEFAULTS.maxRedirects,
    connectTimeoutMs: NET_DEFAULTS.connectTimeoutMs,
    receiveTimeoutMs: NET_DEFAULTS.receiveTimeoutMs,
    onTooLarge: 'truncate',
  });
  if (response.status >= 400) {
    // Fermix's wording ("network: HTTP <status>"), so models that know Fermix react the same way.
    throw netError('network', `network: HTTP ${response.status} from ${response.url}.`,
      'Check the URL; for 401/403 the page needs a login web_fetch cannot provide, for 5xx try again later.', {
        status: response.status,
        final_url: response.url,
      });
  }
  const header = response.headers['content-type'];
  const media = parseMediaType(Array.isArray(header) ? header[0] : header);
  const kind = bodyKind(media, response.body);
  if (kind === 'binary') {
    throw netError('unsupported_content_type',
      `web_fetch reads HTML, JSON and text, but ${response.url} returned ${media.essence || 'binary data'}.`,
      'Fetch a text, HTML or JSON page instead; images, PDFs and archives cannot be read with web_fetch.', {
        content_type: media.essence,
        final_url: response.url,
      });
  }
  const decoded = decodeBody(response.body, media, kind, response.truncated);
  // The HTML reader (linkedom + Readability + html-to-text, ~1.2 MB) loads with the first HTML page, not at start-up.
  const text = kind === 'html' ? (await import('./html-to-text.js')).htmlToText(decoded, response.url) : kind === 'json' ? prettyJson(decoded) : decoded;
  return {
    url: input.url,
    final_url: response.url,
    status: response.status,
    content_type: media.essence || SNIFFED[kind],
    text,
    truncated: response.truncated,
  };
}

const SNIFFED: Record<'json' | 'html' | 'text', string> = {
  json: 'application/json',
  html: 'text/html',
  text: 'text/plain',
};
