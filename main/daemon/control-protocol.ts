import type { Socket } from 'node:net';
import { z } from 'zod';
import { FermixError } from '../core/errors.js';

/**
 * Control socket framing, as Fermix's daemon.sock: a 4-byte big-endian length, then JSON.
 * One request → one response → close, except `events.follow` (below), which answers with a frame per
 * event and one closing frame. Every frame, either way, is capped at 4 MiB.
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

/**
 * `events.follow {stream, after_seq, until_turn?}`: the one streaming request. The daemon answers with
 * `{request_id, event}` frames (the stream's events after after_seq: the buffered ones, then live ones)
 * and ends with one `{request_id, result: FollowEnd}` frame, or `{request_id, error}`, then closes.
 * The client sends nothing after its request; closing the connection unsubscribes (the turn goes on).
 */
export const FOLLOW_METHOD = 'events.follow';

export const followParamsSchema = z.strictObject({
  stream: z.string().min(1).max(200),
  after_seq: z.number().int().min(0),
  /** Ends the stream after this turn's chat.turn_finished. */
  until_turn: z.string().min(1).max(200).optional(),
});
export type FollowParams = z.infer<typeof followParamsSchema>;

/** Why a follow ended: the turn finished, or the replay buffer no longer reaches after_seq. */
export interface FollowEnd {
  ended: 'turn_finished' | 'fell_behind';
  latest_seq: number;
}

/**
 * Reads frame after frame from one socket (readFrame reads exactly one and leaves the rest unread).
 * `next()` resolves to the next frame, or null when the peer closed between frames.
 */
export function createFrameReader(socket: Socket): { next(): Promise<unknown> } {
  let chunks: Buffer[] = [];
  let buffered = 0;
  let length: number | undefined;
  const frames: unknown[] = [];
  let failure: Error | undefined;
  let ended = false;
  let waiter: { resolve(value: unknown): void; reject(error: Error): void } | undefined;

  // Joined only when a header or a whole frame is in, so a 4 MiB frame in 64 KiB chunks is not quadratic.
  const joined = () => {
    if (chunks.length > 1) chunks = [Buffer.concat(chunks)];
    return chunks[0];
  };
  const drain = () => {
    while (failure === undefined) {
      if (length === undefined) {
        if (buffered < 4) return;
        length = joined().readUInt32BE(0);
        if (length > MAX_FRAME_BYTES) {
          failure = frameTooLarge(length);
          socket.destroy();
          return;
        }
      }
      if (buffered < 4 + length) return;
      const all = joined();
      const body = all.subarray(4, 4 + length);
      const rest = all.subarray(4 + length);
      chunks = rest.length > 0 ? [rest] : [];
      buffered = rest.length;
      length = undefined;
      try {
        frames.push(decodeFrameBody(body));
      } catch (error) {
        failure = error as Error;
      }
    }
  };
  const wake = () => {
    if (!waiter) return;
    const current = waiter;
    if (frames.length > 0) current.resolve(frames.shift());
    else if (failure) current.reject(failure);
    else if (ended) current.resolve(null);
    else return;
    waiter = undefined;
  };
  const onEnd = () => {
    if (!ended && failure === undefined && buffered > 0) failure = invalidFrame('ended before the whole frame arrived');
    ended = true;
    wake();
  };
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buffered += chunk.length;
    drain();
    wake();
  });
  socket.on('end', onEnd);
  socket.on('close', onEnd);
  socket.on('error', (error) => {
    failure ??= error;
    wake();
  });
  return {
    next() {
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
        wake();
      });
    },
  };
}
