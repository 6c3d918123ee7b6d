import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { NavigationGuard } from './navigation-guard.js';

/**
 * A forward proxy on 127.0.0.1 that every connection of a managed profile goes through
 * (`--proxy-server` with `<-loopback>` so loopback is not bypassed). context.route alone is not enough:
 * Playwright does not route the hops of a redirect, and a page could 302 itself onto 169.254.169.254.
 * Here each hop is a new request or CONNECT, checked by the same guard, and the socket goes to the address
 * that was checked (no second DNS lookup that a rebinding name could answer differently).
 */
export interface GuardProxy {
  server: string;
  close(): Promise<void>;
}

const REFUSED_PAGE = (reason: string) => `<!doctype html><title>Blocked by Fermix</title><p>Fermix refused this address: ${reason.replace(/[&<>]/gu, '')}.</p>`;

export async function startGuardProxy(guard: NavigationGuard): Promise<GuardProxy> {
  const sockets = new Set<Socket>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const raw = request.url ?? '';
      const verdict = await guard.check(raw);
      if (verdict.reason !== undefined || verdict.address === undefined) {
        const reason = verdict.reason ?? 'it is not an absolute http URL';
        guard.record(raw, reason);
        response.writeHead(403, { 'content-type': 'text/html; charset=utf-8', 'x-fermix-blocked': '1' });
        response.end(REFUSED_PAGE(reason));
        return;
      }
      const url = new URL(raw);
      const headers = { ...request.headers };
      delete headers['proxy-connection'];
      delete headers['proxy-authorization'];
      const upstream = httpRequest({ host: verdict.address, port: url.port || 80, method: request.method, path: `${url.pathname}${url.search}`, headers, setHost: false }, (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.statusMessage, reply.headers);
        reply.pipe(response);
      });
      upstream.on('error', () => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      });
      request.pipe(upstream);
    })();
  });

  // HTTPS and WebSocket-over-TLS: a tunnel to host:port, once the guard has accepted it.
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    void (async () => {
      const target = request.url ?? '';
      const verdict = await guard.check(`https://${target}/`);
      if (verdict.reason !== undefined || verdict.address === undefined) {
        guard.record(`https://${target}/`, verdict.reason ?? 'it is not a host:port');
        client.end('HTTP/1.1 403 Forbidden\r\nx-fermix-blocked: 1\r\n\r\n');
        return;
      }
      const port = Number(new URL(`https://${target}/`).port || 443);
      const upstream = connect({ host: verdict.address, port }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
