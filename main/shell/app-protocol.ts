// Serves the built renderer on app://fermix/ with a strict CSP. A custom standard+secure scheme instead of
// file:// gives the window a real origin (so the IPC adapter can check it) and keeps file:// away from page code.
import { readFile } from 'node:fs/promises';
import { protocol, type Session } from 'electron';
import { APP_CONTENT_SECURITY_POLICY, APP_SCHEME, contentTypeFor, resolveAppFile } from './app-origin.js';

/** Must run before `app` is ready: Chromium fixes the scheme table at start-up. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function serveAppProtocol(session: Session, rendererDir: string): void {
  session.protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 });
    const file = resolveAppFile(rendererDir, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    try {
      // fs in the Electron main process reads inside app.asar transparently.
      const body = await readFile(file);
      return new Response(new Uint8Array(body), {
        status: 200,
        headers: {
          'content-type': contentTypeFor(file),
          'content-security-policy': APP_CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-cache',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
