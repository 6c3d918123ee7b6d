/**
 * Turning response bytes into text for web_fetch: what kind of body it is, which charset, and JSON layout.
 */

export type BodyKind = 'json' | 'html' | 'text' | 'binary';

export interface MediaType {
  /** Lower-case type/subtype, '' when the server sent none. */
  essence: string;
  charset: string | undefined;
}

export function parseMediaType(header: string | undefined): MediaType {
  if (!header) return { essence: '', charset: undefined };
  const [essence, ...params] = header.split(';');
  const charsetParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
  const charset = charsetParam?.slice('charset='.length).replace(/^"|"$/gu, '').trim().toLowerCase();
  return { essence: essence.trim().toLowerCase(), charset: charset || undefined };
}

// Textual types outside text/*: markup, code and config formats a reader can use as-is.
const TEXTUAL_APPLICATION = new Set([
  'application/xml', 'application/javascript', 'application/ecmascript', 'application/x-javascript',
  'application/yaml', 'application/x-yaml', 'application/toml', 'application/x-ndjson', 'application/csv',
  'application/sql', 'application/graphql', 'application/x-sh', 'application/x-www-form-urlencoded',
]);

/** Classifies by Content-Type; sniffs only when the server sent none (sniffing a declared type invites confusion). */
export function bodyKind(media: MediaType, body: Buffer): BodyKind {
  const { essence } = media;
  if (essence === '') return sniff(body);
  if (essence === 'application/json' || essence === 'text/json' || essence.endsWith('+json')) return 'json';
  if (essence === 'text/html' || essence === 'application/xhtml+xml') return 'html';
  if (essence.startsWith('text/') || essence.endsWith('+xml') || TEXTUAL_APPLICATION.has(essence)) return 'text';
  return 'binary';
}

function sniff(body: Buffer): BodyKind {
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  const start = head.toString('latin1').trimStart().toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
  if (start.startsWith('{') || start.startsWith('[')) return 'json';
  return 'text';
}

/**
 * Decodes with the declared charset (or an HTML <meta charset>), falling back to UTF-8. Invalid bytes become
 * U+FFFD (fatal: false). A truncated body may end inside a multi-byte character: `stream: true` without a
 * final flush drops that partial character instead of adding a spurious U+FFFD.
 */
export function decodeBody(body: Buffer, media: MediaType, kind: BodyKind, truncated: boolean): string {
  const label = media.charset ?? (kind === 'html' ? metaCharset(body) : undefined) ?? 'utf-8';
  return decoderFor(label).decode(body, { stream: truncated });
}

/** An unknown charset label (RangeError) falls back to UTF-8 rather than failing the whole fetch. */
function decoderFor(label: string) {
  try {
    return new TextDecoder(label, { fatal: false });
  } catch {
    return new TextDecoder('utf-8', { fatal: false });
  }
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 1024).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([a-z0-9_.:-]+)/iu.exec(head)?.[1]?.toLowerCase();
}

/**
 * Lays valid JSON out with two-space indentation by moving whitespace only, never re-serialising: a
 * JSON.parse/stringify round trip would round big integers (e.g. 64-bit IDs) and rewrite string escapes.
 * Returns the input unchanged when it is not valid JSON (e.g. a truncated body).
 */
export function prettyJson(text: string): string {
  try {
    JSON.parse(text);
  } catch {
    return text;
  }
  let out = '';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      const next = text.slice(i + 1).trimStart()[0];
      if (next === close) {
        out += c + close;
        i = text.indexOf(close, i + 1);
      } else {
        depth += 1;
        out += `${c}\n${'  '.repeat(depth)}`;
      }
    } else if (c === '}' || c === ']') {
      depth -= 1;
      out += `\n${'  '.repeat(depth)}${c}`;
    } else if (c === ',') {
      out += `,\n${'  '.repeat(depth)}`;
    } else if (c === ':') {
      out += ': ';
    } else if (!/\s/u.test(c)) {
      out += c;
    }
  }
  return out;
}
