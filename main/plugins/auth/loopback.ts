/**
 * The loopback redirect listener of RFC 8252 §7.3: http://127.0.0.1:<port>/callback on the IPv4
 * loopback literal (not "localhost", which may resolve elsewhere), one accepted callback, then closed.
 * The browser's request is answered only after the code exchange, so the page it shows tells the truth.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FermixError } from '../../core/errors.js';

export interface LoopbackListener {
  redirectUri: string;
  /** Resolves with the callback's query once one arrives with the expected state; rejects on timeout/close. */
  callback: Promise<{ params: URLSearchParams; respond: (ok: boolean, text: string) => void }>;
  close(): void;
}

const page = (ok: boolean, text: string) => `<!doctype html><meta charset="utf-8"><title>Fermix sign-in</title><body style="font-family:system-ui;margin:3em"><h1>${ok ? 'Signed in' : 'Sign-in failed'}</h1><p>${text.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</p><p>You can close this window.</p></body>`;

export function listenForRedirect(options: { host?: string; port?: number; timeoutMs: number; state: string }): Promise<LoopbackListener> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolveListener, rejectListener) => {
    let settle!: { resolve: (value: Awaited<LoopbackListener['callback']>) => void; reject: (error: Error) => void };
    const callback = new Promise<Awaited<LoopbackListener['callback']>>((resolve, reject) => { settle = { resolve, reject }; });
    // The caller may never await it (a start that nobody waits for); the rejection must not crash the daemon.
    callback.catch(() => undefined);
    let done = false;
    const server = http.createServer((request, response) => {
      const url = new URL(request.url ?? '/', `http://${host}`);
      if (url.pathname !== '/callback' || done) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      // A stray or forged request (wrong state) is answered and ignored; the real redirect can still come.
      if (url.searchParams.get('state') !== options.state) {
        response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(page(false, 'This sign-in link does not belong to the running sign-in.'));
        return;
      }
      done = true;
      clearTimeout(timer);
      settle.resolve({
        params: url.searchParams,
        respond: (ok, text) => {
          response.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(page(ok, text));
          server.close();
        },
      });
    });
    const close = () => {
      clearTimeout(timer);
      server.closeAllConnections();
      server.close();
      if (!done) {
        done = true;
        settle.reject(new FermixError({ code: 'oauth_cancelled', message: 'The sign-in was cancelled before the browser came back.', hint: 'Start it again with `fermix plugins auth login NAME`.' }));
      }
    };
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      server.closeAllConnections();
      server.close();
      settle.reject(new FermixError({ code: 'oauth_timeout', message: `No sign-in arrived within ${Math.round(options.timeoutMs / 1000)} s.`, hint: 'Run `fermix plugins auth login NAME` again and finish in the browser (or raise --timeout).' }));
    }, options.timeoutMs);
    timer.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      rejectListener(new FermixError({ code: 'oauth_port_unavailable', message: `The sign-in listener could not open ${host}:${options.port ?? 0} (${error.code ?? error.message}).`, hint: 'Pick another port with `--port`, or change redirect_port under [fermix_core.oauth.<provider>].' }));
    });
    server.listen(options.port ?? 0, host.replace(/^\[|\]$/g, ''), () => {
      const { port } = server.address() as AddressInfo;
      resolveListener({ redirectUri: `http://${host}:${port}/callback`, callback, close });
    });
  });
}
