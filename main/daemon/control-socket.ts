import { createServer, type Server, type Socket } from 'node:net';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import type { Dispatcher } from '../api/dispatcher.js';
import { FermixError, toWireError } from '../core/errors.js';
import { encodeFrame, FOLLOW_METHOD, readFrame, type ControlRequest } from './control-protocol.js';
import { followEvents, type FollowSource } from './control-follow.js';

/** A client that connects and sends nothing (or half a frame) is dropped after this. */
export const CONTROL_READ_TIMEOUT_MS = 30_000;
/** Concurrent CLI connections; `fermix ask` holds one per running turn, so this is generous. */
export const MAX_CONTROL_CONNECTIONS = 128;

/** The answer frame, or an error frame when the answer itself would break the 4 MiB cap. */
function answerFrame(value: { request_id: string; result?: unknown; error?: unknown }): Buffer {
  try {
    return encodeFrame(value);
  } catch (error) {
    const wire = toWireError(error);
    if (wire.code === 'frame_too_large') {
      wire.message = 'The answer to this request is larger than the 4 MiB frame cap.';
      wire.hint = 'Ask for less (a smaller limit), or use the HTTP API.';
    }
    return encodeFrame({ request_id: value.request_id, error: wire });
  }
}

/**
 * The CLI's door: a Unix socket, mode 0600. As in Fermix, the file's permissions are the trust
 * boundary (only the owner's account can connect), so callers are the operator.
 */
export function createControlSocket(options: { path: string; dispatcher: Dispatcher; events?: FollowSource; onError?: (message: string, error: unknown) => void }) {
  const connections = new Set<Socket>();
  let listening = false;
  const server: Server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(CONTROL_READ_TIMEOUT_MS, () => {
      options.onError?.('control socket client sent no whole frame in time; closed', new Error(`timeout ${CONTROL_READ_TIMEOUT_MS} ms`));
      socket.destroy();
    });
    readFrame(socket)
      .then(async (frame) => {
        // The request is in; a long answer (a chat turn) is not the client's fault.
        socket.setTimeout(0);
        const request = (frame !== null && typeof frame === 'object' ? frame : {}) as Partial<ControlRequest>;
        const requestId = typeof request.request_id === 'string' ? request.request_id.slice(0, 200) : '';
        if (request.method === FOLLOW_METHOD && options.events) {
          followEvents({ socket, requestId, params: request.params, events: options.events, onError: options.onError });
          return;
        }
        const result = typeof request.method === 'string'
          ? await options.dispatcher.dispatch(request.method, request.params, { transport: 'socket', trust: 'operator' })
          : { ok: false as const, error: { code: 'invalid_request', message: 'A control request needs a "method".', hint: 'Send {request_id, method, params}.' } };
        if (!socket.writable) return;
        socket.end(answerFrame(result.ok ? { request_id: requestId, result: result.result } : { request_id: requestId, error: result.error }));
      })
      .catch((error: unknown) => {
        options.onError?.('control socket request failed', error);
        if (error instanceof FermixError && socket.writable) {
          // Answer the violation in the wire shape, then close; the rest of an oversize frame is never read.
          socket.end(encodeFrame({ request_id: '', error: error.toWire() }), () => socket.destroy());
        } else socket.destroy();
      });
  });
  server.maxConnections = MAX_CONTROL_CONNECTIONS;

  return {
    listen(): Promise<void> {
      // A socket file left by a killed daemon would make listen fail with EADDRINUSE; the caller holds the pid lock.
      if (existsSync(options.path)) rmSync(options.path, { force: true });
      return new Promise((resolve, reject) => {
        server.on('error', (error) => {
          // After start-up (EMFILE on accept, say) the server keeps its other connections.
          if (listening) options.onError?.('control socket server error', error);
          else reject(error);
        });
        server.listen(options.path, () => {
          listening = true;
          chmodSync(options.path, 0o600);
          resolve();
        });
      });
    },
    close(): Promise<void> {
      for (const socket of connections) socket.destroy();
      return new Promise((resolve) => server.close(() => {
        rmSync(options.path, { force: true });
        resolve();
      }));
    },
  };
}
