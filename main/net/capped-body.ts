import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { lazyBuiltin } from '../daemon/lazy-builtin.js';
import { netError } from './net-errors.js';

export type OnTooLarge = 'error' | 'truncate';

export interface CappedBody {
  body: Buffer;
  truncated: boolean;
}

/**
 * Reads a response body without ever holding more than `maxBytes`. The cap counts DECODED bytes, so a
 * 10 KB gzip bomb that inflates to gigabytes stops at the cap like any other large body.
 * 'error' refuses with `body_too_large` (also up front when Content-Length already says so);
 * 'truncate' keeps exactly the first `maxBytes` bytes and flags `truncated`.
 * The caller destroys the request when this returns or throws, which closes the socket.
 */
export async function readCappedBody(response: IncomingMessage, maxBytes: number, onTooLarge: OnTooLarge): Promise<CappedBody> {
  const declared = Number(response.headers['content-length']);
  const encoding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (onTooLarge === 'error' && encoding === 'identity' && Number.isFinite(declared) && declared > maxBytes) {
    throw tooLarge(maxBytes, declared);
  }
  const stream = decoded(response, encoding);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (total + chunk.length > maxBytes) {
        if (onTooLarge === 'error') throw tooLarge(maxBytes);
        chunks.push(chunk.subarray(0, maxBytes - total));
        return { body: Buffer.concat(chunks, maxBytes), truncated: true };
      }
      chunks.push(chunk);
      total += chunk.length;
    }
  } finally {
    if (stream !== response) stream.destroy();
  }
  return { body: Buffer.concat(chunks, total), truncated: false };
}

function decoded(response: IncomingMessage, encoding: string): Readable {
  const make = DECODERS[encoding];
  if (encoding === 'identity' || encoding === '') return response;
  if (!make) {
    throw netError(
      'network',
      `The server sent an unsupported Content-Encoding "${encoding}".`,
      'Try the URL again; if it keeps failing, the site is not readable by web_fetch.',
      { content_encoding: encoding },
    );
  }
  const decoder = make();
  // Decoder errors (corrupt gzip) surface through the for-await loop; response errors are forwarded to it.
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

// node:zlib loads with the first compressed body: nothing at start-up decodes one.
const loadZlib = lazyBuiltin<typeof import('node:zlib')>('node:zlib');
const DECODERS: Record<string, () => Transform> = {
  gzip: () => loadZlib().createGunzip(),
  'x-gzip': () => loadZlib().createGunzip(),
  deflate: () => loadZlib().createInflate(),
  br: () => loadZlib().createBrotliDecompress(),
};

function tooLarge(maxBytes: number, declared?: number) {
  const said = declared === undefined ? '' : ` (Content-Length says ${declared})`;
  return netError(
    'body_too_large',
    `The response body exceeded ${maxBytes} bytes${said}.`,
    'Fetch a smaller resource (a specific page or an API endpoint with paging) instead of the whole file.',
    { max_bytes: maxBytes, ...(declared === undefined ? {} : { content_length: declared }) },
  );
}
