import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { callDaemon } from '../../main/cli/control-client.js';
import { apiCall, isAlive, startDaemonProcess, stopDaemonProcess, tempHome, type DaemonProcess } from '../support/daemon-process.js';
import { closedWithin, encodeClientFrame, openRawWebSocket, rawControl, rawHttp, replyFrame } from './transport-raw.js';

// One daemon for the whole file; every case ends by proving it still answers.
const home = tempHome();
let daemon: DaemonProcess;
const counts = { wsViolations: 0, wsRandom: 0, httpRandom: 0, bodiesRandom: 0, controlRandom: 0 };

beforeAll(async () => {
  daemon = await startDaemonProcess(home);
});
afterAll(async () => {
  // Counts of what was thrown at the daemon, for the report.
  console.info('transport fuzz counts', JSON.stringify(counts));
  await stopDaemonProcess(daemon);
});

async function stillServing(): Promise<void> {
  expect(isAlive(daemon.pid), `daemon died; stderr: ${daemon.stderr()}`).toBe(true);
  const live = await fetch(`${daemon.base}health/live`);
  expect(live.status).toBe(200);
  const status = await apiCall(daemon, 'system.status', {});
  expect(status.body.result.pid).toBe(daemon.pid);
}

const text = (value: string) => Buffer.from(value, 'utf8');
const closePayload = (code: number) => {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code, 0);
  return payload;
};

describe('malformed WebSocket frames close one connection with the right code, and the daemon lives', () => {
  const violations: { name: string; frames: Buffer[]; code: number }[] = [
    { name: '2 MiB text frame', frames: [encodeClientFrame({ opcode: 0x1, payload: Buffer.alloc(2 * 1024 * 1024, 0x61) })], code: 1009 },
    { name: 'declared 2^62-byte frame', frames: [encodeClientFrame({ opcode: 0x2, declaredLength: 2n ** 62n })], code: 1009 },
    { name: 'fragments adding up past the 64 KiB cap', frames: [encodeClientFrame({ opcode: 0x1, fin: false, payload: Buffer.alloc(40_000, 0x61) }), encodeClientFrame({ opcode: 0x0, payload: Buffer.alloc(40_000, 0x61) })], code: 1009 },
    { name: 'invalid UTF-8 in a text frame', frames: [encodeClientFrame({ opcode: 0x1, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) })], code: 1007 },
    { name: 'unmasked client frame', frames: [encodeClientFrame({ opcode: 0x1, payload: text('{}'), masked: false })], code: 1002 },
    { name: 'reserved opcode 0x3', frames: [encodeClientFrame({ opcode: 0x3, payload: text('x') })], code: 1002 },
    { name: 'reserved control opcode 0xB', frames: [encodeClientFrame({ opcode: 0xb })], code: 1002 },
    { name: 'RSV1 set without permessage-deflate', frames: [encodeClientFrame({ opcode: 0x1, rsv: 4, payload: text('{}') })], code: 1002 },
    { name: 'RSV3 set', frames: [encodeClientFrame({ opcode: 0x1, rsv: 1, payload: text('{}') })], code: 1002 },
    { name: 'fragmented ping', frames: [encodeClientFrame({ opcode: 0x9, fin: false })], code: 1002 },
    { name: 'control frame over 125 bytes', frames: [encodeClientFrame({ opcode: 0x9, payload: Buffer.alloc(126) })], code: 1002 },
    { name: 'continuation with nothing to continue', frames: [encodeClientFrame({ opcode: 0x0, payload: text('x') })], code: 1002 },
    { name: 'new text frame inside a fragmented message', frames: [encodeClientFrame({ opcode: 0x1, fin: false, payload: text('a') }), encodeClientFrame({ opcode: 0x1, payload: text('b') })], code: 1002 },
    { name: 'close frame with a 1-byte payload', frames: [encodeClientFrame({ opcode: 0x8, payload: Buffer.from([3]) })], code: 1002 },
    { name: 'close frame with reserved code 999', frames: [encodeClientFrame({ opcode: 0x8, payload: closePayload(999) })], code: 1002 },
  ];

  for (const violation of violations) {
    it(`${violation.name} → ${violation.code}`, async () => {
      const ws = await openRawWebSocket(daemon.port, daemon.token);
      for (const frame of violation.frames) ws.send(frame);
      expect(await closedWithin(ws, 5000)).toBe(violation.code);
      counts.wsViolations += 1;
      await stillServing();
    });
  }

  it('logs one line per violation and keeps serving other WebSocket clients meanwhile', async () => {
    const log = readFileSync(join(home, 'logs', 'fermix.log'), 'utf8');
    const lines = log.split('\n').filter((line) => line.includes('websocket client broke the protocol'));
    expect(lines).toHaveLength(violations.length);
    expect(log).not.toContain('Unhandled');
    // A well-behaved client on the same daemon still gets answers to replay requests.
    const ws = await openRawWebSocket(daemon.port, daemon.token);
    ws.send(encodeClientFrame({ opcode: 0x1, payload: text(JSON.stringify({ type: 'replay', stream: 'system', after_seq: 0 })) }));
    ws.send(encodeClientFrame({ opcode: 0x1, payload: text('not json') }));
    await expect.poll(() => ws.texts.length, { timeout: 3000 }).toBe(2);
    expect(JSON.parse(ws.texts[0])).toMatchObject({ type: 'replay', stream: 'system' });
    expect(JSON.parse(ws.texts[1])).toMatchObject({ type: 'error', error: { code: 'invalid_input', hint: expect.any(String) } });
    ws.socket.destroy();
  });

  it('random bytes after a real handshake never end the daemon', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async (bytes) => {
        const ws = await openRawWebSocket(daemon.port, daemon.token);
        ws.send(Buffer.from(bytes));
        await closedWithin(ws, 30);
        ws.socket.destroy();
        counts.wsRandom += 1;
        expect(isAlive(daemon.pid)).toBe(true);
      }),
      { numRuns: 60, seed: 20261201 },
    );
    // Random headers with random (mostly masked) payloads: the frame layer's own edge cases.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 7 }), fc.boolean(), fc.boolean(), fc.uint8Array({ maxLength: 200 }), async (opcode, rsv, fin, masked, payload) => {
        const ws = await openRawWebSocket(daemon.port, daemon.token);
        ws.send(encodeClientFrame({ opcode, rsv, fin, masked, payload: Buffer.from(payload) }));
        await closedWithin(ws, 30);
        ws.socket.destroy();
        counts.wsRandom += 1;
      }),
      { numRuns: 60, seed: 7 },
    );
    await stillServing();
  });
});

describe('random HTTP requests never get a 5xx and never end the daemon', () => {
  const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/);
  const headerValue = fc.string({ maxLength: 40 }).map((value) => value.replace(/[\r\n]/g, ''));

  it('random request lines and headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'BREW', 'get', 'CONNECT'),
        fc.oneof(fc.constantFrom('/', '/api/', '/api/system.status', '/api/%ZZ', '/%E0%A4%A', '/health/live', '/auth/session', '/api/events', '*', '//x', '/a?b=%zz#c'), fc.webPath(), fc.string({ maxLength: 30 }).map((value) => `/${value.replace(/[\s]/g, '')}`)),
        fc.array(fc.tuple(token, headerValue), { maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        async (method, path, headers, withHost, duplicateHost) => {
          const lines = [`${method} ${path} HTTP/1.1`];
          if (withHost) lines.push(`Host: 127.0.0.1:${daemon.port}`);
          if (duplicateHost) lines.push(`Host: evil.example:${daemon.port}`);
          lines.push(`Authorization: Bearer ${daemon.token}`);
          for (const [name, value] of headers) if (!/^(content-length|transfer-encoding|host|expect)$/i.test(name)) lines.push(`${name}: ${value}`);
          lines.push('Connection: close');
          const answer = await rawHttp(daemon.port, `${lines.join('\r\n')}\r\n\r\n`, 1500);
          counts.httpRandom += 1;
          expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
        },
      ),
      { numRuns: 150, seed: 42 },
    );
    // Garbage that is not HTTP at all.
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 400 }), async (bytes) => {
        const answer = await rawHttp(daemon.port, Buffer.concat([Buffer.from(bytes), Buffer.from('\r\n\r\n')]), 1500);
        counts.httpRandom += 1;
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 60, seed: 43 },
    );
    await stillServing();
  });

  it('random body framing: wrong Content-Length, broken chunked encoding, random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.oneof(fc.constant('none'), fc.constant('chunked'), fc.nat({ max: 400 })), fc.string({ maxLength: 8 }), async (bytes, framing, chunkSize) => {
        const body = Buffer.from(bytes);
        const head = [`POST /api/system.status HTTP/1.1`, `Host: 127.0.0.1:${daemon.port}`, `Authorization: Bearer ${daemon.token}`, 'Connection: close'];
        let payload = body;
        if (framing === 'chunked') {
          head.push('Transfer-Encoding: chunked');
          payload = Buffer.concat([Buffer.from(`${chunkSize}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
        } else if (typeof framing === 'number') head.push(`Content-Length: ${framing}`);
        const answer = await rawHttp(daemon.port, Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), payload]), 1000, true);
        counts.bodiesRandom += 1;
        expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
      }),
      { numRuns: 80, seed: 11 },
    );
    await stillServing();
  });

  it('random bodies to read-only API methods and to unknown ones', async () => {
    const methods = ['system.health', 'system.status', 'conversations.list', 'conversations.get', 'chat.history', 'chat.turns', 'chat.turn', 'attachments.list', 'attachments.get', 'capabilities.list', 'capabilities.inspect', 'approvals.list', 'audit.query', 'audit.export', 'roles.check', 'events.replay', 'settings.get', 'providers.list', 'computer.status', 'voice.status', 'directory_access.pending', 'no.such_method', '%2e%2e', '__proto__', 'constructor'];
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
      fc.record({ id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), limit: fc.oneof(fc.integer(), fc.double(), fc.string()), stream: fc.string(), after_seq: fc.integer(), name: fc.string(), conversation_id: fc.string() }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), body, async (method, payload) => {
        const response = await fetch(`${daemon.base}api/${method}`, { method: 'POST', headers: { authorization: `Bearer ${daemon.token}`, 'content-type': 'application/json' }, body: payload });
        const answer = (await response.json()) as { error?: { code: string; message: string; hint: string } };
        counts.bodiesRandom += 1;
        expect(response.status, `${method} ${payload.slice(0, 200)} → ${JSON.stringify(answer)}`).toBeLessThan(500);
        if (response.status >= 400) expect(answer.error).toMatchObject({ code: expect.any(String), message: expect.any(String), hint: expect.any(String) });
      }),
      { numRuns: 250, seed: 99 },
    );
    await stillServing();
  });
});

describe('random control-socket frames never end the daemon', () => {
  it('random bytes, random lengths and random JSON requests', async () => {
    const socketPath = join(home, 'run', 'daemon.sock');
    const frame = (body: Buffer, declared = body.length) => {
      const header = Buffer.alloc(4);
      header.writeUInt32BE(declared >>> 0, 0);
      return Buffer.concat([header, body]);
    };
    const input = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      fc.tuple(fc.uint8Array({ maxLength: 100 }), fc.nat()).map(([bytes, declared]) => frame(Buffer.from(bytes), declared)),
      fc.record({ request_id: fc.oneof(fc.string(), fc.integer()), method: fc.oneof(fc.constantFrom('system.status', 'conversations.list', 'conversations.get', 'events.replay'), fc.string()), params: fc.jsonValue({ maxDepth: 4 }) }, { requiredKeys: [] })
        .map((request) => frame(Buffer.from(JSON.stringify(request)))),
    );
    await fc.assert(
      fc.asyncProperty(input, async (bytes) => {
        const { reply } = await rawControl(socketPath, bytes, 40);
        counts.controlRandom += 1;
        const answer = reply.length >= 4 ? replyFrame(reply) : undefined;
        if (answer?.error) expect(answer.error.code).not.toBe('internal_error');
      }),
      { numRuns: 150, seed: 5 },
    );
    expect(isAlive(daemon.pid)).toBe(true);
    const status = (await callDaemon(socketPath, 'system.status', {})) as { pid: number };
    expect(status.pid).toBe(daemon.pid);
    await stillServing();
  });
});
