import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Dispatcher } from '../api/dispatcher.js';
import type { EventBus } from './event-bus.js';
import type { HttpAuth } from './http-auth.js';
import { safeDecode, serveStatic } from './static-files.js';
import { FermixError, type WireError } from '../core/errors.js';

export interface HttpServerOptions {
  dispatcher: Dispatcher;
  events: EventBus;
  auth: HttpAuth;
  rendererDir: string;
  readiness: () => { ready: boolean; not_ready: { component: string; reason: string }[] };
  maxBodyBytes?: number;
  /** Defaults to MAX_BUFFERED_BODY_BYTES; smaller in tests. */
  maxBufferedBodyBytes?: number;
  onError?: (message: string, error: unknown) => void;
  /** One line per client that broke the protocol (bad frame, bad request line, too slow). */
  onWarn?: (message: string, fields: Record<string, unknown>) => void;
  /** Inbound MCP over Streamable HTTP at /mcp (main/mcp/service.ts): 503 when off, 401 on a bad bearer token. */
  mcp?: {
    enabled(): boolean;
    authorize(request: IncomingMessage): boolean;
    handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void>;
  };
}

/** An inbound MCP request body (the hosted rail's request cap, reference §2.5). */
export const MAX_MCP_REQUEST_BYTES = 1024 * 1024;

/**
 * Client → daemon WebSocket messages are only `{"type":"replay",…}` requests of a few hundred bytes;
 * 64 KiB leaves room for growth and keeps one client from making the daemon buffer megabytes.
 */
export const MAX_CLIENT_FRAME_BYTES = 64 * 1024;
/** Event streams per daemon: windows and tabs of one person, not thousands. */
export const MAX_WEBSOCKET_CLIENTS = 64;
/** A client that stops reading is cut off once this much is queued for it, instead of growing our heap. */
export const MAX_WEBSOCKET_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Request bodies held in memory at once across all connections (256 connections × 32 MiB would not fit). */
export const MAX_BUFFERED_BODY_BYTES = 128 * 1024 * 1024;
/** Loopback connections per daemon; past it new ones are dropped so one client cannot exhaust descriptors. */
export const MAX_HTTP_CONNECTIONS = 256;

const STATUS_BY_CODE: Record<string, number> = {
  invalid_input: 400,
  invalid_request: 400,
  unauthorized: 401,
  forbidden_host: 403,
  method_not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  too_many_requests: 429,
  internal_error: 500,
  not_implemented: 501,
};

function wire(code: string, message: string, hint: string): { error: WireError } {
  return { error: { code, message, hint } };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  response.end(text);
}

/** Writes a whole JSON HTTP response on a raw socket (client errors and refused upgrades), then closes it. */
function rawReply(socket: Duplex, status: number, reason: string, body: { error: WireError }): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

function tooLarge(limit: number): FermixError {
  return new FermixError({ code: 'payload_too_large', message: `The request body is larger than ${limit} bytes.`, hint: 'Send a smaller request (attachments: at most 20 MB each).', data: { max_bytes: limit } });
}

/** Bytes of request bodies the server holds right now, shared by all its connections. */
interface BodyBudget {
  used: number;
  max: number;
}

function readBody(request: IncomingMessage, limit: number, budget: BodyBudget): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    // Refuse before reading: the 413 goes out while the client is still sending.
    if (Number.isFinite(declared) && declared > limit) return reject(tooLarge(limit));
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const release = () => {
      budget.used -= size;
      size = 0;
      chunks.length = 0;
    };
    const refuse = (error: FermixError) => {
      refused = true;
      release();
      reject(error);
    };
    request.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      budget.used += chunk.length;
      if (size > limit) return refuse(tooLarge(limit));
      if (budget.used > budget.max) {
        return refuse(new FermixError({ code: 'too_many_requests', message: 'The daemon is already receiving too many large requests.', hint: 'Wait for the other uploads to finish, then send this again.' }));
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (refused) return;
      const body = Buffer.concat(chunks);
      refused = true; // settled: later events must not release twice
      release();
      if (body.length === 0) return resolve(undefined);
      try {
        resolve(JSON.parse(body.toString('utf8')));
      } catch {
        reject(new FermixError({ code: 'invalid_input', message: 'The request body is not valid JSON.', hint: 'Send a JSON object.' }));
      }
    });
    // The client went away mid-body: nobody is left to answer, and it is not the daemon's failure.
    request.on('error', () => {
      if (!refused) refuse(new FermixError({ code: 'invalid_request', message: 'The client closed the connection before the body arrived.', hint: '' }));
    });
    // A client that disconnects mid-body may not raise 'error'; its bytes must still leave the budget.
    request.on('close', () => {
      if (!refused) refuse(new FermixError({ code: 'invalid_request', message: 'The client closed the connection before the body arrived.', hint: '' }));
    });
  });
}

function parseUrl(raw: string | undefined): URL | undefined {
  try {
    return new URL(raw ?? '/', 'http://127.0.0.1');
  } catch {
    return undefined;
  }
}

/** HTTP + WebSocket on 127.0.0.1 only; the one router (dispatcher) behind it. */
export function createHttpServer(options: HttpServerOptions) {
  const { dispatcher, events, auth } = options;
  const limit = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const warn = options.onWarn ?? (() => {});
  const sockets = new Set<WebSocket>();
  const bodyBudget: BodyBudget = { used: 0, max: options.maxBufferedBodyBytes ?? MAX_BUFFERED_BODY_BYTES };
  let boundPort = 0;
  let listening = false;

  const hostHint = () => `Open the address the daemon printed (http://127.0.0.1:${boundPort}/).`;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = parseUrl(request.url);
    if (!url) return sendJson(response, 400, wire('invalid_request', 'The request URL cannot be parsed.', hostHint()));
    const duplicate = auth.duplicateHeader(request);
    if (duplicate) return sendJson(response, 400, wire('invalid_request', `${duplicate}.`, 'Send each of Host, Origin and Authorization once.'));
    const hostProblem = auth.checkHostAndOrigin(request);
    if (hostProblem) return sendJson(response, 403, wire('forbidden_host', `${hostProblem}.`, hostHint()));

    if (url.pathname === '/health/live') return sendJson(response, 200, { live: true });
    if (url.pathname === '/health/ready') {
      const readiness = options.readiness();
      return sendJson(response, readiness.ready ? 200 : 503, readiness);
    }
    if (url.pathname === '/auth/session' && request.method === 'POST') {
      const body = (await readBody(request, 4096, bodyBudget)) as { token?: unknown } | undefined;
      const cookie = auth.exchange(body !== null && typeof body === 'object' ? body.token : undefined);
      if (!cookie) return sendJson(response, 401, wire('unauthorized', 'That token is not valid for this daemon run.', 'Open the URL that `fermix daemon` or `npm start` printed (it carries the token), or run `fermix status` to see it.'));
      response.setHeader('set-cookie', cookie);
      return sendJson(response, 200, { ok: true });
    }
    // After the Host/Origin checks above, like every route: a web page cannot reach /mcp by DNS rebinding.
    if (url.pathname === '/mcp') {
      if (!options.mcp?.enabled()) return sendJson(response, 503, wire('mcp_inbound_disabled', 'Inbound MCP is turned off.', 'Set `[mcp.inbound] enabled = true` in config.toml (`fermix config path` shows where it is).'));
      if (!options.mcp.authorize(request)) return sendJson(response, 401, wire('unauthorized', 'This request carries no valid inbound MCP token.', 'Send `Authorization: Bearer <token>` with the secret named by [mcp.inbound] auth_token_ref (`fermix secrets set NAME`).'));
      const body = request.method === 'POST' ? await readBody(request, MAX_MCP_REQUEST_BYTES, bodyBudget) : undefined;
      return options.mcp.handle(request, response, body);
    }
    if (url.pathname.startsWith('/api/')) {
      if (!auth.isAuthenticated(request)) {
        return sendJson(response, 401, wire('unauthorized', 'This request carries no valid session or token.', 'Open the URL with the token that the daemon printed, or run `fermix status` to see it.'));
      }
      if (request.method !== 'POST') return sendJson(response, 405, wire('method_not_allowed', 'API calls use POST.', 'POST /api/<method> with a JSON body.'));
      const method = safeDecode(url.pathname.slice('/api/'.length));
      if (method === undefined) return sendJson(response, 400, wire('invalid_request', 'The method name in the URL is not valid percent-encoding.', 'POST /api/<method> with the method name as the API lists it, e.g. /api/system.status.'));
      const input = await readBody(request, limit, bodyBudget);
      const result = await dispatcher.dispatch(method, input, { transport: 'http', trust: 'operator' });
      return result.ok ? sendJson(response, 200, { result: result.result }) : sendJson(response, STATUS_BY_CODE[result.error.code] ?? 422, { error: result.error });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, wire('method_not_allowed', 'Only GET is served here.', 'Use POST /api/<method> for API calls.'));
    serveStatic(options.rendererDir, url.pathname, response, boundPort);
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (error instanceof FermixError) {
        // An unread body stays on the socket: close it after this answer instead of parsing it as the next request.
        if (error.code === 'payload_too_large') response.setHeader('connection', 'close');
        return sendJson(response, STATUS_BY_CODE[error.code] ?? 400, { error: error.toWire() });
      }
      options.onError?.('http request failed', error);
      sendJson(response, 500, wire('internal_error', 'The daemon failed to answer this request.', 'Run `fermix logs -n 50`.'));
    });
  });
  // Slow-loris guard: headers within 10 s, a whole request body within 2 min (loopback is fast).
  server.headersTimeout = 10_000;
  server.requestTimeout = 120_000;
  server.maxConnections = MAX_HTTP_CONNECTIONS;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset is a client leaving, not a protocol violation worth a log line.
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    warn('http client sent a malformed request', { code: error.code ?? 'unknown' });
    if (error.code === 'HPE_HEADER_OVERFLOW') return rawReply(socket, 431, 'Request Header Fields Too Large', wire('invalid_request', 'The request headers are too large.', 'Send fewer or shorter headers.'));
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return rawReply(socket, 408, 'Request Timeout', wire('invalid_request', 'The request did not arrive in time.', 'Send the whole request at once.'));
    rawReply(socket, 400, 'Bad Request', wire('invalid_request', 'The request is not valid HTTP/1.1.', 'Use an HTTP client; API calls are POST /api/<method> with a JSON body.'));
  });

  // `ws` (~125 KB) loads with the first WebSocket client, not at start-up: /health/ready does not wait for it.
  let wssLoading: Promise<WebSocketServer> | undefined;
  const websocketServer = () =>
    (wssLoading ??= import('ws').then(({ WebSocketServer: Server }) => {
      const wss = new Server({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES });
      wss.on('error', (error) => warn('websocket server error', { error: String(error) }));
      // Handshakes ws itself refuses (bad Sec-WebSocket-Key or version): answer 400, log one line.
      wss.on('wsClientError', (error, socket) => {
        warn('websocket handshake refused', { error: error.message });
        rawReply(socket, 400, 'Bad Request', wire('invalid_request', 'The WebSocket handshake is not valid.', 'Connect with a WebSocket client to /api/events.'));
      });
      return wss;
    }));
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node drops its own error listener from upgraded sockets: without this a reset kills the process.
    socket.on('error', () => socket.destroy());
    const url = parseUrl(request.url);
    const duplicate = auth.duplicateHeader(request);
    if (!url || duplicate) return rawReply(socket, 400, 'Bad Request', wire('invalid_request', `${duplicate ?? 'The request URL cannot be parsed'}.`, 'Connect to /api/events with one Host header.'));
    const problem = auth.checkHostAndOrigin(request) ?? (url.pathname !== '/api/events' ? 'No WebSocket is served at this path' : undefined);
    if (problem) return rawReply(socket, 403, 'Forbidden', wire('forbidden_host', `${problem}.`, hostHint()));
    if (!auth.isAuthenticated(request)) return rawReply(socket, 401, 'Unauthorized', wire('unauthorized', 'This request carries no valid session or token.', 'Open the URL with the token that the daemon printed, or run `fermix status` to see it.'));
    if (sockets.size >= MAX_WEBSOCKET_CLIENTS) return rawReply(socket, 429, 'Too Many Requests', wire('too_many_clients', `The daemon already streams events to ${MAX_WEBSOCKET_CLIENTS} clients.`, 'Close other Fermix windows or tabs, then reload.'));
    websocketServer().then(
      (wss) => {
        if (!socket.destroyed) wss.handleUpgrade(request, socket, head, (ws) => attach(ws));
      },
      (error: unknown) => {
        warn('websocket support failed to load', { error: String(error) });
        rawReply(socket, 503, 'Service Unavailable', wire('service_unavailable', 'The event stream is unavailable.', 'Run `fermix doctor`, then restart the daemon.'));
      },
    );
  });

  /** Sends unless the client has stopped reading, in which case it is cut off instead of growing our heap. */
  function sendTo(ws: WebSocket, value: unknown): void {
    if (ws.bufferedAmount > MAX_WEBSOCKET_BUFFERED_BYTES) {
      if (ws.readyState === ws.OPEN) warn('websocket client stopped reading; closed', { buffered_bytes: ws.bufferedAmount });
      ws.terminate();
      return;
    }
    ws.send(JSON.stringify(value));
  }

  function attach(ws: WebSocket): void {
    sockets.add(ws);
    const unsubscribe = events.subscribe((event) => sendTo(ws, { type: 'event', event }));
    // ws has already sent the close frame with the right code (1009 too big, 1007 bad UTF-8,
    // 1002 protocol error) when it emits this; we only keep the process alive and log it.
    ws.on('error', (error: Error & { code?: string }) => warn('websocket client broke the protocol; closed', { code: error.code ?? 'unknown', error: error.message }));
    ws.on('message', (raw, isBinary) => {
      let message: { type?: unknown; stream?: unknown; after_seq?: unknown } | undefined;
      try {
        message = isBinary ? undefined : (JSON.parse(String(raw)) as typeof message);
      } catch {
        message = undefined;
      }
      if (message !== null && typeof message === 'object' && message.type === 'replay' && typeof message.stream === 'string' && Number.isInteger(message.after_seq)) {
        const replay = events.replay(message.stream, message.after_seq as number);
        sendTo(ws, { type: 'replay', stream: message.stream, ...replay });
        return;
      }
      sendTo(ws, { type: 'error', ...wire('invalid_input', 'WebSocket messages must be JSON replay requests.', 'Send {"type":"replay","stream":…,"after_seq":…} as a text frame.') });
    });
    ws.on('close', () => {
      unsubscribe();
      sockets.delete(ws);
    });
  }

  return {
    listen(port: number): Promise<number> {
      return new Promise((resolve, reject) => {
        server.on('error', (error: NodeJS.ErrnoException) => {
          // After start-up (e.g. EMFILE on accept) the server keeps serving the connections it has.
          if (listening) return options.onError?.('http server error', error);
          if (error.code === 'EADDRINUSE') {
            reject(new FermixError({ code: 'port_in_use', message: `Port ${port} on 127.0.0.1 is already in use.`, hint: 'Stop the other program, or start with `fermix daemon --port 0` (any free port) or set [fermix_web] port in config.toml.', cause: error }));
          } else reject(error);
        });
        // 127.0.0.1 only: the daemon is never reachable from the network.
        server.listen(port, '127.0.0.1', () => {
          listening = true;
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
    /** Ends every event stream (after a token rotation their sessions are gone; they reconnect and are refused). */
    closeEventClients(): void {
      for (const ws of sockets) ws.close(4401, 'session revoked');
    },
    /** Live event streams, for tests and status. */
    get websocketClients() {
      return sockets.size;
    },
  };
}
