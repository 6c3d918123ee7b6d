import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { ServerResponse } from 'node:http';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** decodeURIComponent without the URIError: a client's malformed `%ZZ` is its mistake (400), not ours (500). */
export function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Serves the built renderer; any unknown path gets index.html (client-side routes). */
export function serveStatic(root: string, urlPath: string, response: ServerResponse, port: number): void {
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    response.writeHead(503, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Fermix</title><p>The Fermix window has not been built yet. Run <code>npm run build</code>, then reload this page.</p>');
    return;
  }
  const decoded = safeDecode(urlPath.split('?')[0]);
  if (decoded === undefined) {
    const body = JSON.stringify({ error: { code: 'invalid_request', message: 'The URL path is not valid percent-encoding.', hint: 'Open the address the daemon printed, without hand-edited % escapes.' } });
    response.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-content-type-options': 'nosniff' });
    response.end(body);
    return;
  }
  let relative = decoded;
  if (relative.endsWith('/')) relative += 'index.html';
  const candidate = normalize(join(root, relative));
  const inside = candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
  const file = inside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : index;
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const headers: Record<string, string> = { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' };
  if (type.startsWith('text/html')) {
    headers['content-security-policy'] = contentSecurityPolicy(port);
    headers['referrer-policy'] = 'no-referrer';
  }
  response.writeHead(200, headers);
  response.end(readFileSync(file));
}
