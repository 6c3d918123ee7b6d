import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { apiCall, isAlive, startDaemonProcess, stopDaemonProcess, tempHome, waitFor, type DaemonProcess } from '../support/daemon-process.js';
import { openRawWebSocket, rawControl, rawHttp, replyFrame } from './transport-raw.js';

const home = tempHome();
let daemon: DaemonProcess;

beforeAll(async () => {
  daemon = await startDaemonProcess(home);
});
afterAll(async () => {
  await stopDaemonProcess(daemon);
});

const host = () => `127.0.0.1:${daemon.port}`;
function request(head: string[], body = ''): string {
  return `${head.join('\r\n')}\r\nConnection: close\r\n\r\n${body}`;
}
/** The wire error of a raw answer, checked for the one shape every transport uses. */
function wireError(text: string): { code: string; message: string; hint: string } {
  const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string; hint: string } };
  expect(body.error).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String), hint: expect.any(String) }));
  return body.error;
}

/** As text: JSON.stringify itself overflows the stack on 10,000 levels, which is the bug being guarded. */
function nested(depth: number): string {
  return `${'['.repeat(depth)}"leaf"${']'.repeat(depth)}`;
}

describe('client input gets a 4xx in the wire shape, never a 500', () => {
  it('arguments nested 10,000 deep: 400 invalid_input over HTTP and over the control socket', async () => {
    const http = await fetch(`${daemon.base}api/conversations.create`, { method: 'POST', headers: { authorization: `Bearer ${daemon.token}` }, body: `{"title":${nested(10_000)}}` });
    expect(http.status).toBe(400);
    expect(((await http.json()) as { error: unknown }).error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('64'), hint: expect.any(String) });
    const body = Buffer.from(`{"request_id":"deep","method":"conversations.create","params":{"title":${nested(10_000)}}}`);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(body.length, 0);
    const { reply } = await rawControl(join(home, 'run', 'daemon.sock'), Buffer.concat([header, body]));
    expect(replyFrame(reply)).toMatchObject({ request_id: 'deep', error: { code: 'invalid_input' } });
  });

  it('malformed percent-encoding: 400 invalid_request for /api/%ZZ and for a page path', async () => {
    const api = await rawHttp(daemon.port, request([`POST /api/%ZZ HTTP/1.1`, `Host: ${host()}`, `Authorization: Bearer ${daemon.token}`, 'Content-Length: 2'], '{}'));
    expect(api.status).toBe(400);
    expect(wireError(api.text).code).toBe('invalid_request');
    const page = await rawHttp(daemon.port, request([`GET /%E0%A4%A HTTP/1.1`, `Host: ${host()}`]));
    expect(page.status).toBe(400);
    expect(wireError(page.text).code).toBe('invalid_request');
  });

  it('bad JSON: 400 invalid_input', async () => {
    const response = await fetch(`${daemon.base}api/system.status`, { method: 'POST', headers: { authorization: `Bearer ${daemon.token}` }, body: '{"unterminated' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_input');
  });

  it('oversize bodies: 413 payload_too_large, refused from Content-Length before any body is read, and when streamed', async () => {
    const declared = await rawHttp(daemon.port, request([`POST /api/system.status HTTP/1.1`, `Host: ${host()}`, `Authorization: Bearer ${daemon.token}`, `Content-Length: ${64 * 1024 * 1024}`]));
    expect(declared.status).toBe(413);
    expect(wireError(declared.text).code).toBe('payload_too_large');
    const chunk = 'x'.repeat(5000);
    const streamed = await rawHttp(daemon.port, request([`POST /auth/session HTTP/1.1`, `Host: ${host()}`, 'Transfer-Encoding: chunked'], `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`));
    expect(streamed.status).toBe(413);
    expect(wireError(streamed.text).code).toBe('payload_too_large');
  });

  it('unknown and wrong HTTP methods: 400 for a method HTTP does not know, 405 for a known wrong one', async () => {
    const brew = await rawHttp(daemon.port, request([`BREW /api/system.status HTTP/1.1`, `Host: ${host()}`]));
    expect(brew.status).toBe(400);
    expect(wireError(brew.text).code).toBe('invalid_request');
    const put = await rawHttp(daemon.port, request([`PUT /api/system.status HTTP/1.1`, `Host: ${host()}`, `Authorization: Bearer ${daemon.token}`]));
    expect(put.status).toBe(405);
    expect(wireError(put.text).code).toBe('method_not_allowed');
    const garbage = await rawHttp(daemon.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.status).toBe(400);
    const huge = await rawHttp(daemon.port, request([`GET / HTTP/1.1`, `Host: ${host()}`, `X-Big: ${'a'.repeat(20_000)}`]));
    expect(huge.status).toBe(431);
  });

  it('duplicate Host, Origin or Authorization: 400 invalid_request, also on the WebSocket upgrade', async () => {
    for (const extra of [`Host: ${host()}`, `Host: evil.example:${daemon.port}`, `Origin: http://${host()}`, `Authorization: Bearer ${daemon.token}`]) {
      const head = [`POST /api/system.status HTTP/1.1`, `Host: ${host()}`, `Origin: http://${host()}`, `Authorization: Bearer ${daemon.token}`, extra, 'Content-Length: 2'];
      const answer = await rawHttp(daemon.port, request(head, '{}'));
      expect(answer.status, extra).toBe(400);
      expect(wireError(answer.text)).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('more than one') });
    }
    const upgrade = await rawHttp(daemon.port, request([`GET /api/events HTTP/1.1`, `Host: ${host()}`, `Host: evil.example`, 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13', `Authorization: Bearer ${daemon.token}`]));
    expect(upgrade.status).toBe(400);
  });

  it('control-socket violations answer in the wire shape: oversize frame, bad JSON, bad UTF-8, no method', async () => {
    const socketPath = join(home, 'run', 'daemon.sock');
    const frame = (body: Buffer, declared = body.length) => {
      const header = Buffer.alloc(4);
      header.writeUInt32BE(declared, 0);
      return Buffer.concat([header, body]);
    };
    const cases: [Buffer, string][] = [
      [frame(Buffer.alloc(0), 4 * 1024 * 1024 + 1), 'frame_too_large'],
      [frame(Buffer.from('{nope')), 'invalid_request'],
      [frame(Buffer.from([0x7b, 0xff, 0x7d])), 'invalid_request'],
      [frame(Buffer.from('{"request_id":"r"}')), 'invalid_request'],
      [frame(Buffer.from('[1,2]')), 'invalid_request'],
    ];
    for (const [bytes, code] of cases) {
      const { reply, closed } = await rawControl(socketPath, bytes);
      const answer = replyFrame(reply);
      expect(answer?.error, code).toMatchObject({ code, message: expect.any(String), hint: expect.any(String) });
      expect(closed).toBe(true);
    }
    expect(isAlive(daemon.pid)).toBe(true);
  });

  it('caps WebSocket clients per daemon: the 65th gets 429 too_many_clients, and a freed slot is reusable', async () => {
    const open = await Promise.all(Array.from({ length: 64 }, () => openRawWebSocket(daemon.port, daemon.token)));
    const refused = await rawHttp(daemon.port, request([`GET /api/events HTTP/1.1`, `Host: ${host()}`, 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13', `Authorization: Bearer ${daemon.token}`]));
    expect(refused.status).toBe(429);
    expect(wireError(refused.text).code).toBe('too_many_clients');
    for (const ws of open) ws.socket.destroy();
    await waitFor(async () => {
      try {
        (await openRawWebSocket(daemon.port, daemon.token)).socket.destroy();
        return true;
      } catch {
        return false;
      }
    }, 5000, 'a free WebSocket slot');
  });
});

describe('no listener leak under concurrent calls', () => {
  it('12 calls parked at once add no MaxListenersExceededWarning (each call has its own abort signal)', async () => {
    const calls = Array.from({ length: 12 }, () => apiCall(daemon, 'capabilities.call', { name: 'shell', args: { command: 'true' }, interactive: true }));
    let pending: { id: string }[] = [];
    await waitFor(async () => {
      pending = (await apiCall(daemon, 'approvals.list', {})).body.result.pending;
      return pending.length === 12;
    }, 10_000, '12 parked approvals');
    for (const each of pending) await apiCall(daemon, 'approvals.answer', { id: each.id, answer: 'deny' });
    const results = await Promise.all(calls);
    expect(results.map((result) => result.body.error?.code)).toEqual(Array(12).fill('permission_denied'));
    expect(results.every((result) => result.status < 500)).toBe(true);
    expect(daemon.stderr()).not.toContain('MaxListenersExceededWarning');
    expect((await apiCall(daemon, 'system.status', {})).body.result.in_flight).toBe(1);
  });
});

describe('web sessions are stored and survive a daemon crash and restart', () => {
  it('a cookie traded before a restart still authenticates HTTP and the WebSocket after it', async () => {
    const traded = await fetch(`${daemon.base}auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: daemon.token }) });
    const cookie = String(traded.headers.get('set-cookie')).split(';')[0];
    // A crash, not a clean stop: sessions are written when created, not at shutdown.
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    daemon = await startDaemonProcess(home);
    const status = await rawHttp(daemon.port, request([`POST /api/system.status HTTP/1.1`, `Host: ${host()}`, `Cookie: ${cookie}`, 'Content-Length: 2'], '{}'));
    expect(status.status).toBe(200);
    const ws = await openRawWebSocket(daemon.port, '', `Cookie: ${cookie}`);
    ws.socket.destroy();
    await expect(openRawWebSocket(daemon.port, '', `Cookie: fermix_session=${'B'.repeat(43)}`)).rejects.toThrow(/401/);
    const forged = await rawHttp(daemon.port, request([`POST /api/system.status HTTP/1.1`, `Host: ${host()}`, `Cookie: fermix_session=${'A'.repeat(43)}`, 'Content-Length: 2'], '{}'));
    expect(forged.status).toBe(401);
  });
});
