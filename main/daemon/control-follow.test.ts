// events.follow over a real control socket (real dispatcher, real event bus, real Unix socket).
import { connect, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../api/dispatcher.js';
import type { EventEnvelope } from '../api/events.js';
import { followDaemon } from '../cli/control-client.js';
import { createControlSocket } from './control-socket.js';
import { createFrameReader, encodeFrame, FOLLOW_METHOD, MAX_FRAME_BYTES } from './control-protocol.js';
import { createEventBus } from './event-bus.js';

let open: ReturnType<typeof createControlSocket> | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function serve() {
  const path = join(mkdtempSync(join(tmpdir(), 'fermix-follow-')), 'd.sock');
  const bus = createEventBus();
  const warnings: string[] = [];
  open = createControlSocket({ path, dispatcher: createDispatcher({}), events: bus, onError: (message) => void warnings.push(message) });
  await open.listen();
  return { path, bus, warnings };
}

const finished = (turnId: string) => ({ turn_id: turnId, conversation_id: 'c', status: 'completed' as const, text: 'hi', stop_reason: 'stop', error: null, provider: null, model: null, iterations: 1, usage: { input_tokens: 0, output_tokens: 0 }, cost_usd: null });

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** A raw client: sends the follow request and hands back the connection and a frame reader. */
async function rawFollow(path: string, params: unknown): Promise<{ socket: Socket; reader: ReturnType<typeof createFrameReader> }> {
  const socket = connect(path);
  await new Promise((resolve) => socket.once('connect', resolve));
  const reader = createFrameReader(socket);
  socket.write(encodeFrame({ request_id: 'r1', method: FOLLOW_METHOD, params }));
  return { socket, reader };
}

describe('events.follow', () => {
  it('sends the buffered events, then live ones as they are emitted, and ends after the turn finishes', async () => {
    const { path, bus } = await serve();
    bus.emit('c', 'chat.delta', { turn_id: 't0', text: 'old' }); // seq 1, before after_seq
    bus.emit('c', 'chat.delta', { turn_id: 't1', text: 'He' }); // seq 2, buffered
    const seen: string[] = [];
    let sawFirst!: () => void;
    const first = new Promise<void>((resolve) => (sawFirst = resolve));
    const following = followDaemon(path, { stream: 'c', after_seq: 1, until_turn: 't1' }, (event: EventEnvelope) => {
      seen.push(`${event.seq}:${event.type}`);
      sawFirst();
    }, 10_000);
    await first;
    // Each live event is emitted only after the previous ones reached the client: pushed, not polled.
    bus.emit('other', 'chat.delta', { turn_id: 't1', text: 'not this stream' });
    bus.emit('c', 'chat.delta', { turn_id: 't1', text: 'llo' });
    await until(() => seen.length === 2);
    bus.emit('c', 'chat.turn_finished', finished('t0')); // another turn's end does not end the follow
    bus.emit('c', 'chat.turn_finished', finished('t1'));
    await expect(following).resolves.toEqual({ ended: 'turn_finished', latest_seq: 5 });
    expect(seen).toEqual(['2:chat.delta', '3:chat.delta', '4:chat.turn_finished', '5:chat.turn_finished']);
    await until(() => bus.listenerCount() === 0);
  });

  it('says fell_behind when the replay buffer no longer reaches after_seq', async () => {
    const { path, bus } = await serve();
    for (let index = 0; index < 600; index += 1) bus.emit('c', 'chat.delta', { turn_id: 't', text: 'x' }); // perStream 500
    await expect(followDaemon(path, { stream: 'c', after_seq: 3 }, () => {}, 10_000)).resolves.toEqual({ ended: 'fell_behind', latest_seq: 600 });
  });

  it('an event past the 4 MiB frame cap ends the follow with frame_too_large, cleanly', async () => {
    const { path, bus } = await serve();
    const seen: number[] = [];
    const following = followDaemon(path, { stream: 'c', after_seq: 0, until_turn: 't' }, (event) => void seen.push(event.seq), 10_000);
    await until(() => bus.listenerCount() === 1);
    bus.emit('c', 'chat.delta', { turn_id: 't', text: 'small' });
    bus.emit('c', 'chat.delta', { turn_id: 't', text: 'x'.repeat(MAX_FRAME_BYTES + 10) });
    await expect(following).rejects.toMatchObject({ code: 'frame_too_large', message: expect.stringContaining('Event 2 (chat.delta)') });
    expect(seen).toEqual([1]);
    expect(bus.listenerCount()).toBe(0);
    // The bus (and so the turn) carries on.
    expect(bus.emit('c', 'chat.delta', { turn_id: 't', text: 'more' }).seq).toBe(3);
  });

  it('a client that leaves mid-turn only ends its subscription', async () => {
    const { path, bus, warnings } = await serve();
    const { socket, reader } = await rawFollow(path, { stream: 'c', after_seq: 0, until_turn: 't' });
    await until(() => bus.listenerCount() === 1);
    bus.emit('c', 'chat.delta', { turn_id: 't', text: 'a' });
    expect(await reader.next()).toMatchObject({ request_id: 'r1', event: { seq: 1, payload: { text: 'a' } } });
    socket.destroy();
    await until(() => bus.listenerCount() === 0);
    bus.emit('c', 'chat.delta', { turn_id: 't', text: 'b' });
    bus.emit('c', 'chat.turn_finished', finished('t'));
    expect(bus.replay('c', 0).events).toHaveLength(3);
    expect(warnings).toEqual([]);
  });

  it('cuts off a follower that stopped reading instead of buffering without bound', async () => {
    const { path, bus, warnings } = await serve();
    const { socket } = await rawFollow(path, { stream: 'c', after_seq: 0 });
    socket.pause();
    await until(() => bus.listenerCount() === 1);
    const megabyte = 'y'.repeat(1024 * 1024);
    for (let index = 0; index < 12 && bus.listenerCount() > 0; index += 1) bus.emit('c', 'chat.delta', { turn_id: 't', text: megabyte });
    expect(bus.listenerCount()).toBe(0);
    expect(warnings).toContain('control socket follower stopped reading; cut off');
    socket.destroy();
  });

  it('refuses bad params in the wire shape', async () => {
    const { path } = await serve();
    await expect(followDaemon(path, { stream: '', after_seq: -1 } as never, () => {}, 10_000)).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('events.follow') });
  });

  it('a socket without an event source answers method_not_found (the CLI then polls)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'fermix-follow-')), 'd.sock');
    open = createControlSocket({ path, dispatcher: createDispatcher({}) });
    await open.listen();
    await expect(followDaemon(path, { stream: 'c', after_seq: 0 }, () => {}, 10_000)).rejects.toMatchObject({ code: 'method_not_found' });
  });
});
