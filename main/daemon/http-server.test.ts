import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../api/dispatcher.js';
import { createEventBus } from './event-bus.js';
import { createHttpAuth } from './http-auth.js';
import { createHttpServer, MAX_WEBSOCKET_BUFFERED_BYTES } from './http-server.js';
import { connect } from 'node:net';
import { encodeClientFrame, openRawWebSocket, rawHttp } from '../../test/security/transport-raw.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(extra: { maxBodyBytes?: number; maxBufferedBodyBytes?: number } = {}) {
  const events = createEventBus();
  const auth = createHttpAuth('test-token');
  const warnings: { message: string; fields: Record<string, unknown> }[] = [];
  const server = createHttpServer({
    dispatcher: createDispatcher({}),
    events,
    auth,
    rendererDir: '/nonexistent',
    readiness: () => ({ ready: true, not_ready: [] }),
    onWarn: (message, fields) => warnings.push({ message, fields }),
    ...extra,
  });
  servers.push(server);
  const port = await server.listen(0);
  return { server, events, port, warnings };
}

describe('http server: one client cannot hurt the others', () => {
  it('cuts off a WebSocket client that stops reading once 8 MiB is queued, and unsubscribes it from the bus', async () => {
    const { server, events, port, warnings } = await start();
    const ws = await openRawWebSocket(port, 'test-token');
    ws.socket.pause(); // never read: the kernel buffers fill, then ws queues in our heap
    expect(events.listenerCount()).toBe(1);
    const title = 'x'.repeat(64 * 1024);
    let sent = 0;
    while (server.websocketClients > 0 && sent < 2000) {
      events.emit('c1', 'conversation.updated', { id: 'c1', title });
      sent += 1;
      if (sent % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await expect.poll(() => server.websocketClients, { timeout: 5000 }).toBe(0);
    expect(events.listenerCount()).toBe(0);
    // It took at least the cap's worth of events, and far fewer than the 2000 × 64 KiB we were prepared to send.
    expect(sent * title.length).toBeGreaterThan(MAX_WEBSOCKET_BUFFERED_BYTES);
    expect(sent).toBeLessThan(2000);
    expect(warnings.map((warning) => warning.message)).toContain('websocket client stopped reading; closed');
    ws.socket.destroy();
  });

  it('a protocol violation unsubscribes that socket and logs exactly one line; the server keeps one error listener', async () => {
    const { events, port, warnings } = await start();
    const good = await openRawWebSocket(port, 'test-token');
    const bad = await openRawWebSocket(port, 'test-token');
    bad.send(encodeClientFrame({ opcode: 0x1, payload: Buffer.from('{}'), masked: false }));
    expect(await bad.closed).toBe(1002);
    await expect.poll(() => events.listenerCount()).toBe(1);
    expect(warnings.filter((warning) => warning.message.startsWith('websocket client broke the protocol'))).toHaveLength(1);
    events.emit('c2', 'conversation.created', { id: 'c2', title: 'still delivered' });
    await expect.poll(() => good.texts.length).toBe(1);
    expect(JSON.parse(good.texts[0])).toMatchObject({ type: 'event', event: { payload: { title: 'still delivered' } } });
    good.socket.destroy();
  });

  it('still reports a port in use as port_in_use at listen', async () => {
    const { port } = await start();
    const second = createHttpServer({ dispatcher: createDispatcher({}), events: createEventBus(), auth: createHttpAuth(), rendererDir: '/nonexistent', readiness: () => ({ ready: true, not_ready: [] }) });
    await expect(second.listen(port)).rejects.toMatchObject({ code: 'port_in_use' });
  });

  it('holds a bounded total of request bodies: past it 429 too_many_requests, and a closed upload frees its share', async () => {
    const { port } = await start({ maxBodyBytes: 1024 * 1024, maxBufferedBodyBytes: 1536 * 1024 });
    const head = (length: number) => `POST /api/no.such_method HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer test-token\r\nContent-Length: ${length}\r\n\r\n`;
    // A slow upload that never finishes holds 900 KiB.
    const slow = connect(port, '127.0.0.1');
    slow.on('error', () => {});
    slow.write(head(1000 * 1024) + 'x'.repeat(900 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await rawHttp(port, head(800 * 1024) + 'x'.repeat(800 * 1024));
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('"too_many_requests"');
    slow.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const body = JSON.stringify({ pad: 'x'.repeat(800 * 1024) });
    const accepted = await rawHttp(port, head(Buffer.byteLength(body)) + body);
    expect(accepted.status).toBe(404); // through the budget to the dispatcher, which knows no such method
    expect(accepted.text).toContain('"method_not_found"');
  });
});
