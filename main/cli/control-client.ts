import { connect, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { FermixError, fromWireError, type WireError } from '../core/errors.js';
import type { EventEnvelope } from '../api/events.js';
import { createFrameReader, encodeFrame, FOLLOW_METHOD, readFrame, type FollowEnd, type FollowParams } from '../daemon/control-protocol.js';

export function daemonNotRunning(socketPath: string): FermixError {
  return new FermixError({
    code: 'daemon_not_running',
    message: 'The Fermix daemon is not running.',
    hint: 'Start it with `fermix daemon` (or `npm start` for the desktop app).',
    data: { socket: socketPath },
  });
}

/** Connects to the daemon's control socket; a missing or refusing socket means the daemon is down. */
async function openControlSocket(socketPath: string): Promise<Socket> {
  const socket = connect(socketPath);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
  } catch (error) {
    socket.destroy();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') throw daemonNotRunning(socketPath);
    throw error;
  }
  return socket;
}

/** One request over the control socket. A missing or refusing socket means the daemon is down. */
export async function callDaemon(socketPath: string, method: string, params: unknown = {}, timeoutMs = 30_000): Promise<unknown> {
  const socket = await openControlSocket(socketPath);
  socket.setTimeout(timeoutMs);
  const timeout = new Promise<never>((_, reject) =>
    socket.once('timeout', () => {
      socket.destroy();
      reject(new FermixError({ code: 'daemon_timeout', message: `The daemon did not answer ${method} within ${timeoutMs} ms.`, hint: 'Check `fermix logs -n 50`; `fermix restart` if it is stuck.' }));
    }),
  );
  socket.write(encodeFrame({ request_id: randomUUID(), method, params }));
  const response = (await Promise.race([readFrame(socket), timeout])) as { result?: unknown; error?: WireError };
  socket.destroy();
  if (response.error) throw fromWireError(response.error);
  return response.result;
}

/**
 * `events.follow` over one connection: calls `onEvent` for every event frame, in order (the next frame
 * is read only once the previous call returned, so an approval question can wait for the person), and
 * resolves with the closing frame. A daemon that closes without one is reported as `daemon_stream_lost`.
 */
export async function followDaemon(socketPath: string, params: FollowParams, onEvent: (event: EventEnvelope) => Promise<void> | void, timeoutMs: number): Promise<FollowEnd> {
  const socket = await openControlSocket(socketPath);
  const reader = createFrameReader(socket);
  const requestId = randomUUID();
  const timer = setTimeout(() => socket.destroy(new FermixError({ code: 'daemon_timeout', message: `The turn did not end within ${timeoutMs} ms.`, hint: 'The turn goes on in the daemon: `fermix ask --json` waits for it, or see the Fermix window.' })), timeoutMs);
  try {
    socket.write(encodeFrame({ request_id: requestId, method: FOLLOW_METHOD, params }));
    for (;;) {
      const frame = (await reader.next()) as { event?: EventEnvelope; result?: FollowEnd; error?: WireError } | null;
      if (frame === null) throw new FermixError({ code: 'daemon_stream_lost', message: 'The daemon closed the event stream before the turn ended.', hint: 'Check `fermix status`; the answer is kept in the conversation (`fermix ask --session ID`).' });
      if (frame.error) throw fromWireError(frame.error);
      if (frame.result) return frame.result;
      if (frame.event) await onEvent(frame.event);
    }
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
