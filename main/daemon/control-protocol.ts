import type { Socket } from 'node:net';

/**
 * Control socket framing, as Fermix's daemon.sock: a 4-byte big-endian length, then JSON.
 * One request → one response → close. Frames are capped at 4 MiB.
 */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

export function encodeFrame(value: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  if (body.length > MAX_FRAME_BYTES) throw new Error(`Frame of ${body.length} bytes exceeds the 4 MiB cap.`);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

/** Reads exactly one frame from the socket. */
export function readFrame(socket: Socket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 4) return;
      const length = buffer.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES) return finish(new Error(`Frame of ${length} bytes exceeds the 4 MiB cap.`));
      if (buffer.length < 4 + length) return;
      try {
        finish(undefined, JSON.parse(buffer.subarray(4, 4 + length).toString('utf8')));
      } catch (error) {
        finish(error as Error);
      }
    };
    const onEnd = () => finish(new Error('The connection closed before a whole frame arrived.'));
    const finish = (error?: Error, value?: unknown) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', finish);
      if (error) reject(error);
      else resolve(value);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', finish);
  });
}

export interface ControlRequest {
  request_id: string;
  method: string;
  params?: unknown;
}
