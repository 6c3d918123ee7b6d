import type { Socket } from 'node:net';
import { FermixError } from '../core/errors.js';

/**
 * Control socket framing, as Fermix's daemon.sock: a 4-byte big-endian length, then JSON.
 * One request → one response → close. Frames are capped at 4 MiB.
 */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

function frameTooLarge(length: number): FermixError {
  return new FermixError({
    code: 'frame_too_large',
    message: `The control frame of ${length} bytes exceeds the 4 MiB cap.`,
    hint: 'Send smaller params over `fermix` (files go through attachments.upload over HTTP).',
    data: { length, max_bytes: MAX_FRAME_BYTES },
  });
}

function invalidFrame(problem: string): FermixError {
  return new FermixError({ code: 'invalid_request', message: `The control frame ${problem}.`, hint: 'Send a 4-byte big-endian length, then that many bytes of UTF-8 JSON {request_id, method, params}.' });
}

export function encodeFrame(value: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  if (body.length > MAX_FRAME_BYTES) throw frameTooLarge(body.length);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses one frame body; invalid UTF-8 is refused rather than silently turned into U+FFFD. */
export function decodeFrameBody(body: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw invalidFrame('is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidFrame('is not valid JSON');
  }
}

/** Reads exactly one frame from the socket. Errors are FermixErrors with the tag to send back. */
export function readFrame(socket: Socket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Chunks are joined at most twice (header, whole frame): concatenating per chunk is quadratic at 4 MiB.
    const chunks: Buffer[] = [];
    let received = 0;
    let length: number | undefined;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (length === undefined) {
        if (received < 4) return;
        length = Buffer.concat(chunks).readUInt32BE(0);
        if (length > MAX_FRAME_BYTES) return finish(frameTooLarge(length));
      }
      if (received < 4 + length) return;
      try {
        finish(undefined, decodeFrameBody(Buffer.concat(chunks).subarray(4, 4 + length)));
      } catch (error) {
        finish(error as Error);
      }
    };
    const onEnd = () => finish(invalidFrame('ended before the whole frame arrived'));
    const onError = (error: Error) => finish(error);
    let done = false;
    const finish = (error?: Error, value?: unknown) => {
      if (done) return;
      done = true;
      chunks.length = 0;
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
      if (error) reject(error);
      else resolve(value);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
  });
}

export interface ControlRequest {
  request_id: string;
  method: string;
  params?: unknown;
}
