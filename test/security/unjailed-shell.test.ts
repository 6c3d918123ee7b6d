/**
 * A daemon on a Linux machine without bubblewrap (PATH holds only `node`, so `bwrap` is not found):
 * the shell still works, but auto mode and a broad allow rule do not approve it; only a scoped rule
 * does; doctor FAILs with the install command; `sandbox status` says what it means in one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNJAILED_WARNING } from '../../main/core/capabilities/unjailed.js';
import { apiCall, BIN, tempHome, type DaemonProcess } from '../support/daemon-process.js';

const home = tempHome('fermix-unjailed-');
const bin = mkdtempSync(join(tmpdir(), 'fermix-nobwrap-bin-'));
const env = { ...process.env, FERMIX_HOME: home, PATH: bin };
let daemon: DaemonProcess;

function startDaemon(): Promise<DaemonProcess> {
  const child = spawn(process.execPath, [BIN, 'daemon', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 20 s\n${stdout}\n${stderr}`)), 20_000);
    child.stdout.on('data', () => {
      const match = /Open in a browser: (http:\/\/127\.0\.0\.1:(\d+)\/)#token=([\w-]+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, pid: child.pid!, url: match[0], base: match[1], port: Number(match[2]), token: match[3], stdout: () => stdout, stderr: () => stderr, exited });
    });
  });
}

const fermix = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 30_000 });

beforeAll(async () => {
  symlinkSync(process.execPath, join(bin, 'node'));
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[permissions]',
      'mode = "auto"',
      '[[permissions.rules]]',
      'permission = "shell"',
      'action = "allow"',
      '[[permissions.rules]]',
      'permission = "shell"',
      'pattern = "echo *"',
      'action = "allow"',
      '',
    ].join('\n'),
  );
  daemon = await startDaemon();
});
afterAll(async () => {
  daemon?.child.kill('SIGTERM');
  await daemon?.exited;
});

describe('the shell without a jail', () => {
  it('runs a command a scoped rule allows, unjailed', async () => {
    const { body } = await apiCall(daemon, 'capabilities.call', { name: 'shell', args: { command: 'echo scoped' } });
    expect(body.error).toBeUndefined();
    expect(body.result.text).toContain('scoped');
    expect(body.result.data.jailed).toBe(false);
  });

  it('does not let auto mode or the broad rule approve anything else', async () => {
    const { body } = await apiCall(daemon, 'capabilities.call', { name: 'shell', args: { command: 'cat /etc/hostname' } });
    expect(body.error?.code).toBe('permission_denied');
    expect(body.error?.message).toContain(UNJAILED_WARNING);
    expect(body.error?.message).toContain('does not apply to unjailed commands');
  });

  it('doctor fails the sandbox row and names the install command', () => {
    const result = fermix(['doctor', '--json']);
    const rows = JSON.parse(result.stdout).result.checks as Array<{ id: string; status: string; detail: string; fix: string }>;
    const sandbox = rows.find((row) => row.id === 'sandbox_config');
    expect(sandbox?.status).toBe('FAIL');
    expect(sandbox?.detail).toContain('full rights');
    expect(sandbox?.fix).toMatch(/install bubblewrap|bubblewrap package/);
    expect(result.status).toBe(1);
  });

  it('sandbox status says it in one line, in text and JSON', () => {
    expect(fermix(['sandbox', 'status']).stdout).toContain(UNJAILED_WARNING);
    const json = JSON.parse(fermix(['sandbox', 'status', '--json']).stdout);
    expect(json.result.jail).toMatchObject({ active: false, unjailed_warning: UNJAILED_WARNING, limits: null });
  });
});
