import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Dispatcher } from '../api/dispatcher.js';
import type { EventBus } from './event-bus.js';
import type { HttpAuth } from './http-auth.js';
import { serveStatic } from './static-files.js';
import { FermixError } from '../core/errors.js';

export interface HttpServerOptions {
  dispatcher: Dispatcher;
  events: EventBus;
  auth: HttpAuth;
  rendererDir: string;
  readiness: () => { ready: boolean; not_ready: { component: string; reason: string }[] };
  maxBodyBytes?: number;
  onError?: (message: string, error: unknown) => void;
}

const STATUS_BY_CODE: Record<string, number> = {
  invalid_input: 400,
  method_not_found: 404,
  internal_error: 500,
  not_implemented: 501,
};

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new FermixError({ code: 'payload_too_large', message: `The request body is larger than ${limit} bytes.`, hint: 'Send a smaller request.' }));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (size === 0) return resolve(undefined);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new FermixError({ code: 'invalid_input', message: 'The request body is not valid JSON.', hint: 'Send a JSON object.' }));
      }
    });
    request.on('error', reject);
  });
}

/** HTTP + WebSocket on 127.0.0.1 only; the one router (dispatcher) behind it. */
export function createHttpServer(options: HttpServerOptions) {
  const { dispatcher, events, auth } = options;
  const limit = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const sockets = new Set<WebSocket>();
  let boundPort = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const hostProblem = auth.checkHostAndOrigin(request);
    if (hostProblem) return sendJson(response, 403, { error: { code: 'forbidden_host', message: `${hostProblem}.`, hint: `Open the address the daemon printed (http://127.0.0.1:${boundPort}/).` } });

    if (url.pathname === '/health/live') return sendJson(response, 200, { live: true });
    if (url.pathname === '/health/ready') {
      const readiness = options.readiness();
      return sendJson(response, readiness.ready ? 200 : 503, readiness);
    }
    if (url.pathname === '/auth/session' && request.method === 'POST') {
      const body = (await readBody(request, 4096)) as { token?: unknown } | undefined;
      const cookie = auth.exchange(body?.token);
      if (!cookie) return sendJson(response, 401, { error: { code: 'unauthorized', message: 'That token is not valid for this daemon run.', hint: 'Open the URL that `fermix daemon` or `npm start` printed (it carries the token), or run `fermix status` to see it.' } });
      response.setHeader('set-cookie', cookie);
      return sendJson(response, 200, { ok: true });
    }
    if (url.pathname.startsWith('/api/')) {
      if (!auth.isAuthenticated(request)) {
        return sendJson(response, 401, { error: { code: 'unauthorized', message: 'This request carries no valid session or token.', hint: 'Open the URL with the token that the daemon printed, or run `fermix status` to see it.' } });
      }
      if (request.method !== 'POST') return sendJson(response, 405, { error: { code: 'method_not_allowed', message: 'API calls use POST.', hint: 'POST /api/<method> with a JSON body.' } });
      const method = decodeURIComponent(url.pathname.slice('/api/'.length));
      const input = await readBody(request, limit);
      const result = await dispatcher.dispatch(method, input, { transport: 'http', trust: 'operator' });
      return result.ok ? sendJson(response, 200, { result: result.result }) : sendJson(response, STATUS_BY_CODE[result.error.code] ?? 422, { error: result.error });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { error: { code: 'method_not_allowed', message: 'Only GET is served here.', hint: 'Use POST /api/<method> for API calls.' } });
    serveStatic(options.rendererDir, url.pathname, response, boundPort);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (error instanceof FermixError) return sendJson(response, STATUS_BY_CODE[error.code] ?? 413, { error: error.toWire() });
      options.onError?.('http request failed', error);
      if (!response.headersSent) sendJson(response, 500, { error: { code: 'internal_error', message: 'The daemon failed to answer this request.', hint: 'Run `fermix logs -n 50`.' } });
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const problem = auth.checkHostAndOrigin(request) ?? (url.pathname !== '/api/events' ? 'no WebSocket here' : undefined);
    if (problem || !auth.isAuthenticated(request)) {
      socket.end(problem ? 'HTTP/1.1 403 Forbidden\r\n\r\n' : 'HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      const unsubscribe = events.subscribe((event) => ws.send(JSON.stringify({ type: 'event', event })));
      ws.on('message', (raw) => {
        try {
          const message = JSON.parse(String(raw)) as { type?: string; stream?: string; after_seq?: number };
          if (message.type === 'replay' && typeof message.stream === 'string' && Number.isInteger(message.after_seq)) {
            const replay = events.replay(message.stream, message.after_seq as number);
            ws.send(JSON.stringify({ type: 'replay', stream: message.stream, ...replay }));
          }
        } catch {
          ws.send(JSON.stringify({ type: 'error', error: { code: 'invalid_input', message: 'Messages must be JSON.', hint: 'Send {"type":"replay","stream":…,"after_seq":…}.' } }));
        }
      });
      ws.on('close', () => {
        unsubscribe();
        sockets.delete(ws);
      });
    });
  });

  return {
    listen(port: number): Promise<number> {
      return new Promise((resolve, reject) => {
        server.once('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'EADDRINUSE') {
            reject(new FermixError({ code: 'port_in_use', message: `Port ${port} on 127.0.0.1 is already in use.`, hint: 'Stop the other program, or start with `fermix daemon --port 0` (any free port) or set [fermix_web] port in config.toml.', cause: error }));
          } else reject(error);
        });
        // 127.0.0.1 only: the daemon is never reachable from the network.
        server.listen(port, '127.0.0.1', () => {
          const address = server.address();
          boundPort = typeof address === 'object' && address ? address.port : port;
          auth.setPort(boundPort);
          resolve(boundPort);
        });
      });
    },
    close(): Promise<void> {
      for (const ws of sockets) ws.terminate();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    get port() {
      return boundPort;
    },
  };
}
