// Pure helpers for the app's own origin (no electron import, so they run in plain Node tests).
import { extname, join, normalize, sep } from 'node:path';

/** The window loads from `app://fermix/…`: a standard, secure scheme that only our protocol handler serves. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'fermix';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** True only for URLs of our own origin; IPC from any other frame (an injected iframe, a navigation) is refused. */
export function isAppUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Maps an app:// URL to a file under `root`, or undefined when the path escapes it.
 * Unknown paths without an extension fall back to index.html (client-side screens), as the daemon does.
 */
export function resolveAppFile(root: string, url: string): string | undefined {
  if (!isAppUrl(url)) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return undefined;
  }
  if (path.endsWith('/')) path += 'index.html';
  const candidate = normalize(join(root, path));
  const inside = candidate.startsWith(root.endsWith(sep) ? root : root + sep);
  if (!inside) return undefined;
  return extname(candidate) ? candidate : join(root, 'index.html');
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The window's CSP. Stricter than the daemon's browser CSP: inside Electron the renderer talks over IPC,
 * so it needs no network at all (connect-src 'self' only), and React sets styles through the CSSOM,
 * which style-src does not restrict, so no 'unsafe-inline'.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
