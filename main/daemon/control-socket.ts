import { createServer, type Server, type Socket } from 'node:net';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import type { Dispatcher } from '../api/dispatcher.js';
import { encodeFrame, readFrame, type ControlRequest } from './control-protocol.js';

/**
 * The CLI's door: a Unix socket, mode 0600. As in Fermix, the file's permissions are the trust
 * boundary (only the owner's account can connect), so callers are the operator.
 */
export function createControlSocket(options: { path: string; dispatcher: Dispatcher; onError?: (message: string, error: unknown) => void }) {
  const connections = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => socket.destroy());
    readFrame(socket)
      .then(async (frame) => {
        const request = frame as Partial<ControlRequest>;
        const requestId = typeof request.request_id === 'string' ? request.request_id : '';
        const result = typeof request.method === 'string'
          ? await options.dispatcher.dispatch(request.method, request.params, { transport: 'socket', trust: 'operator' })
          : { ok: false as const, error: { code: 'invalid_request', message: 'A control request needs a "method".', hint: 'Send {request_id, method, params}.' } };
        socket.end(encodeFrame(result.ok ? { request_id: requestId, result: result.result } : { request_id: requestId, error: result.error }));
      })
      .catch((error) => {
        options.onError?.('control socket request failed', error);
        socket.destroy();
      });
  });

  return {
    listen(): Promise<void> {
      // A socket file left by a killed daemon would make listen fail with EADDRINUSE; the caller holds the pid lock.
      if (existsSync(options.path)) rmSync(options.path, { force: true });
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.path, () => {
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
