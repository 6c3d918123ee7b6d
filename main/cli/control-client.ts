import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import { FermixError, fromWireError, type WireError } from '../core/errors.js';
import { encodeFrame, readFrame } from '../daemon/control-protocol.js';

export function daemonNotRunning(socketPath: string): FermixError {
  return new FermixError({
    code: 'daemon_not_running',
    message: 'The Fermix daemon is not running.',
    hint: 'Start it with `fermix daemon` (or `npm start` for the desktop app).',
    data: { socket: socketPath },
  });
}

/** One request over the control socket. A missing or refusing socket means the daemon is down. */
export async function callDaemon(socketPath: string, method: string, params: unknown = {}, timeoutMs = 30_000): Promise<unknown> {
  const socket = connect(socketPath);
  socket.setTimeout(timeoutMs);
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
