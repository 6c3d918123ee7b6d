/**
 * The server side of `events.follow` (control-protocol.ts): streams one conversation's events to a CLI
 * over its control-socket connection until the followed turn finishes. The same caps as every other
 * frame (4 MiB, answered in the wire shape), plus the WebSocket's rule for a client that stopped
 * reading: past FOLLOW_MAX_BUFFERED_BYTES unread, it is cut off rather than held in memory.
 */
import type { Socket } from 'node:net';
import type { EventEnvelope } from '../api/events.js';
import { FermixError, toWireError } from '../core/errors.js';
import { encodeFrame, followParamsSchema, type FollowEnd } from './control-protocol.js';

/** The slice of the EventBus a follow needs. */
export interface FollowSource {
  replay(stream: string, afterSeq: number): { events: EventEnvelope[]; latest_seq: number; complete: boolean };
  subscribe(listener: (event: EventEnvelope) => void): () => void;
}

/** Same figure as the WebSocket's cut-off (decision 0012): a reader this far behind is not reading. */
export const FOLLOW_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export function followEvents(options: { socket: Socket; requestId: string; params: unknown; events: FollowSource; onError?: (message: string, error: unknown) => void }): void {
  const { socket, requestId } = options;
  const parsed = followParamsSchema.safeParse(options.params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const error = new FermixError({ code: 'invalid_input', message: `events.follow params are invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'bad value'}.`, hint: 'Send {stream, after_seq, until_turn?} (after_seq from chat.send\'s events_after_seq).' });
    socket.end(encodeFrame({ request_id: requestId, error: error.toWire() }));
    return;
  }
  const { stream, after_seq: afterSeq, until_turn: untilTurn } = parsed.data;
  let lastSeq = afterSeq;
  let done = false;
  // Replaced by the bus's unsubscribe once subscribed.
  let unsubscribe = (): void => {};

  const finish = (frame: unknown) => {
    if (done) return;
    done = true;
    unsubscribe();
    if (socket.writable) socket.end(encodeFrame(frame));
  };
  // True when the follow must stop (the turn ended, or the frame could not be sent).
  const send = (event: EventEnvelope): boolean => {
    if (done || event.stream !== stream || event.seq <= lastSeq) return done;
    lastSeq = event.seq;
    let frame: Buffer;
    try {
      frame = encodeFrame({ request_id: requestId, event });
    } catch (error) {
      const wire = toWireError(error);
      wire.message = `Event ${event.seq} (${event.type}) is larger than the 4 MiB control frame cap.`;
      wire.hint = 'Read the turn with `fermix ask --json` or in the Fermix window; the turn goes on.';
      finish({ request_id: requestId, error: wire });
      return true;
    }
    if (!socket.writable) return true;
    socket.write(frame);
    if (socket.writableLength > FOLLOW_MAX_BUFFERED_BYTES) {
      options.onError?.('control socket follower stopped reading; cut off', new Error(`${socket.writableLength} bytes unread`));
      done = true;
      unsubscribe();
      socket.destroy();
      return true;
    }
    if (untilTurn !== undefined && event.type === 'chat.turn_finished' && (event.payload as { turn_id?: unknown }).turn_id === untilTurn) {
      finish({ request_id: requestId, result: { ended: 'turn_finished', latest_seq: event.seq } satisfies FollowEnd });
      return true;
    }
    return false;
  };

  // replay() and subscribe() run in the same tick: no event can fall between them.
  const replay = options.events.replay(stream, afterSeq);
  if (!replay.complete) return finish({ request_id: requestId, result: { ended: 'fell_behind', latest_seq: replay.latest_seq } satisfies FollowEnd });
  for (const event of replay.events) if (send(event)) return;
  if (socket.destroyed) return; // gone while the request was read: nothing to unsubscribe later
  unsubscribe = options.events.subscribe((event) => void send(event));
  // A client that leaves mid-turn only ends its subscription; the turn runs in the agent, not here.
  socket.once('close', () => {
    done = true;
    unsubscribe();
  });
}
