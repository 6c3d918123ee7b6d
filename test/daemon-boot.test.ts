import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { callDaemon } from '../main/cli/control-client.js';
import { apiCall, isAlive, ROOT, runFermix, startDaemonProcess, stopDaemonProcess, tempHome, waitFor, type DaemonProcess } from './support/daemon-process.js';

function rawRequest(port: number, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, setHost: false }, (res) => {
      let data = '';
      res.on('data', (chunk) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the daemon boots without Electron, as a real child process', () => {
  const home = tempHome();
  let daemon: DaemonProcess;

  beforeAll(async () => {
    daemon = await startDaemonProcess(home);
  });
  afterAll(async () => {
    await stopDaemonProcess(daemon);
  });

  it('creates the home with private directories and a 0600 control socket', () => {
    for (const dir of ['', 'workspace', 'logs', 'run', 'skills', 'plugins']) {
      expect(statSync(join(home, dir)).mode & 0o777, dir || 'home').toBe(0o700);
    }
    expect(statSync(join(home, 'run', 'daemon.sock')).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'run', 'daemon.json')).mode & 0o777).toBe(0o600);
  });

  it('answers an API round trip over HTTP with the token', async () => {
    const created = await apiCall(daemon, 'conversations.create', { title: 'hello over http' });
    expect(created.status).toBe(200);
    expect(created.body.result.title).toBe('hello over http');
    const fetched = await apiCall(daemon, 'conversations.get', { id: created.body.result.id });
    expect(fetched.body.result.conversation.id).toBe(created.body.result.id);
  });

  it('answers an API round trip over the control socket', async () => {
    const created = (await callDaemon(join(home, 'run', 'daemon.sock'), 'conversations.create', { title: 'over the socket' })) as { id: string };
    const listed = (await callDaemon(join(home, 'run', 'daemon.sock'), 'conversations.list', {})) as { conversations: { id: string }[] };
    expect(listed.conversations.map((c) => c.id)).toContain(created.id);
  });

  it('returns errors in one wire shape with a hint and no stack trace', async () => {
    const bad = await apiCall(daemon, 'conversations.get', { id: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_input' });
    // In words for people, with the field kept for programs (main/api/validation-messages.ts).
    expect(bad.body.error!.message).toBe('The ID must be a string.');
    expect((bad.body.error as { data?: { field?: string } }).data?.field).toBe('id');
    expect(bad.body.error!.hint.length).toBeGreaterThan(0);
    const missing = await apiCall(daemon, 'conversations.get', { id: 'nope' });
    expect(missing.body.error).toMatchObject({ code: 'conversation_not_found' });
    const unknown = await apiCall(daemon, 'no.such_method', {});
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses a request without a token with 401', async () => {
    const response = await rawRequest(daemon.port, '/api/system.status', { host: `127.0.0.1:${daemon.port}`, 'content-type': 'application/json' }, 'POST', '{}');
    expect(response.status).toBe(401);
    const wrong = await rawRequest(daemon.port, '/api/system.status', { host: `127.0.0.1:${daemon.port}`, authorization: 'Bearer not-the-token' }, 'POST', '{}');
    expect(wrong.status).toBe(401);
  });

  it('refuses a foreign Host header with 403 (DNS rebinding), even with the token', async () => {
    const response = await rawRequest(daemon.port, '/api/system.status', { host: `evil.example:${daemon.port}`, authorization: `Bearer ${daemon.token}` }, 'POST', '{}');
    expect(response.status).toBe(403);
    const page = await rawRequest(daemon.port, '/', { host: 'attacker.test' });
    expect(page.status).toBe(403);
  });

  it('refuses a foreign Origin with 403, even with the token', async () => {
    const response = await rawRequest(daemon.port, '/api/system.status', { host: `127.0.0.1:${daemon.port}`, origin: 'http://evil.example', authorization: `Bearer ${daemon.token}` }, 'POST', '{}');
    expect(response.status).toBe(403);
  });

  it('trades the token for an HttpOnly SameSite=Strict session cookie that then authenticates', async () => {
    const refused = await rawRequest(daemon.port, '/auth/session', { host: `127.0.0.1:${daemon.port}`, 'content-type': 'application/json' }, 'POST', JSON.stringify({ token: 'guess' }));
    expect(refused.status).toBe(401);
    const traded = await rawRequest(daemon.port, '/auth/session', { host: `127.0.0.1:${daemon.port}`, origin: `http://127.0.0.1:${daemon.port}`, 'content-type': 'application/json' }, 'POST', JSON.stringify({ token: daemon.token }));
    expect(traded.status).toBe(200);
    const cookie = String((traded.headers['set-cookie'] as string[])[0]);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const status = await rawRequest(daemon.port, '/api/system.status', { host: `127.0.0.1:${daemon.port}`, cookie: cookie.split(';')[0] }, 'POST', '{}');
    expect(status.status).toBe(200);
    expect(JSON.parse(status.body).result.pid).toBe(daemon.pid);
  });

  it('serves /health/live without auth and /health/ready with what is not ready', async () => {
    const live = await rawRequest(daemon.port, '/health/live', { host: `127.0.0.1:${daemon.port}` });
    expect(JSON.parse(live.body)).toEqual({ live: true });
    const ready = await rawRequest(daemon.port, '/health/ready', { host: `127.0.0.1:${daemon.port}` });
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ ready: true, not_ready: [] });
  });

  it('streams events over the WebSocket with a per-conversation seq, and replays what a client missed', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}/api/events`, { headers: { authorization: `Bearer ${daemon.token}` } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const received: any[] = [];
    ws.on('message', (raw) => received.push(JSON.parse(String(raw))));
    const created = await apiCall(daemon, 'conversations.create', { title: 'events' });
    const id = created.body.result.id;
    await apiCall(daemon, 'conversations.rename', { id, title: 'renamed once' });
    await apiCall(daemon, 'conversations.rename', { id, title: 'renamed twice' });
    await waitFor(() => received.filter((m) => m.type === 'event' && m.event.stream === id).length === 3, 5000, 'three events');
    expect(received.filter((m) => m.event?.stream === id).map((m) => m.event.seq)).toEqual([1, 2, 3]);
    // A reconnecting client that saw seq 1 asks for the rest.
    ws.send(JSON.stringify({ type: 'replay', stream: id, after_seq: 1 }));
    await waitFor(() => received.some((m) => m.type === 'replay'), 5000, 'replay');
    const replay = received.find((m) => m.type === 'replay');
    expect(replay.events.map((e: any) => [e.seq, e.payload.title])).toEqual([[2, 'renamed once'], [3, 'renamed twice']]);
    expect(replay.complete).toBe(true);
    ws.close();
  });

  it('refuses a WebSocket without a token or from a foreign origin', async () => {
    for (const headers of [{}, { authorization: `Bearer ${daemon.token}`, origin: 'http://evil.example' }]) {
      const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}/api/events`, { headers });
      const outcome = await new Promise<string>((resolve) => {
        ws.once('open', () => resolve('open'));
        ws.once('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        ws.once('error', () => resolve('error'));
      });
      expect(['401', '403', 'error']).toContain(outcome);
      ws.terminate();
    }
  });

  it('refuses a second daemon for the same home, naming the running pid', () => {
    const second = runFermix(home, ['daemon', '--port', '0']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`pid ${daemon.pid}`);
    expect(second.stderr).toContain('fermix stop');
    expect(isAlive(daemon.pid)).toBe(true);
  });

  it('reports status as JSON, then stops gracefully on SIGTERM and status exits 3', async () => {
    const status = runFermix(home, ['status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).result.pid).toBe(daemon.pid);
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
    expect(existsSync(join(home, 'run', 'daemon.pid'))).toBe(false);
    expect(existsSync(join(home, 'run', 'daemon.sock'))).toBe(false);
    const log = readFileSync(join(home, 'logs', 'fermix.log'), 'utf8');
    expect(log).toContain('received SIGTERM');
    const after = runFermix(home, ['status']);
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('not running');
  });
});

describe('the daemon module graph', () => {
  it('contains no electron import (the daemon must run under plain Node)', () => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'out', 'node', 'meta.json'), 'utf8')) as { inputs: Record<string, { imports: { path: string }[] }> };
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((input) => input.includes('main/daemon/compose.ts'))).toBe(true);
    const electronImports = Object.entries(meta.inputs).flatMap(([file, input]) => input.imports.filter((i) => i.path === 'electron' || i.path.startsWith('electron/')).map(() => file));
    expect(electronImports).toEqual([]);
    expect(inputs.filter((input) => input.includes('main/shell/'))).toEqual([]);
  });
});
