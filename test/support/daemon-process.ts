import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'fermix.cjs');

export function tempHome(prefix = 'fermix-home-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface DaemonProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  base: string;
  port: number;
  token: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `fermix daemon --port 0` as a real child process and waits for it to print its URL. */
export function startDaemonProcess(home: string, extraArgs: string[] = [], timeoutMs = 20_000): Promise<DaemonProcess> {
  const child = spawn(process.execPath, [BIN, 'daemon', '--port', '0', ...extraArgs], {
    env: { ...process.env, FERMIX_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not print its URL in ${timeoutMs} ms.\nstdout: ${stdout}\nstderr: ${stderr}`)), timeoutMs);
    const onData = () => {
      const match = /Open in a browser: (http:\/\/127\.0\.0\.1:(\d+)\/)#token=([\w-]+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolveStart({ child, pid: child.pid!, url: match[0].replace('Open in a browser: ', ''), base: match[1], port: Number(match[2]), token: match[3], stdout: () => stdout, stderr: () => stderr, exited });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited with ${code} before it was ready.\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}

/** Kills a daemon started by startDaemonProcess (SIGKILL: the tests that use it do not test shutdown) and waits for it. */
export async function stopDaemonProcess(daemon: DaemonProcess | undefined): Promise<void> {
  if (!daemon || !isAlive(daemon.pid)) return;
  daemon.child.kill('SIGKILL');
  await daemon.exited;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runFermix(home: string, args: string[], options: { input?: string; timeoutMs?: number; env?: Record<string, string> } = {}): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...options.env, FERMIX_HOME: home },
    input: options.input,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Async variant, for commands that must run while the test keeps talking to the daemon. */
export function runFermixAsync(home: string, args: string[]): Promise<CliResult> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, FERMIX_HOME: home } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // 'close', not 'exit': exit can fire before the child's stdout has been read to the end.
    child.once('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

export async function apiCall(daemon: Pick<DaemonProcess, 'base' | 'token'>, method: string, input: unknown = {}, headers: Record<string, string> = {}) {
  const response = await fetch(`${daemon.base}api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${daemon.token}`, ...headers },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: (await response.json()) as { result?: any; error?: { code: string; message: string; hint: string } } };
}

/**
 * Alive = signalable and not a zombie. A daemon started detached (`fermix restart`) is not our child,
 * so once it exits it can linger as a zombie until the container's PID 1 reaps it; kill(0) still
 * succeeds on a zombie, but it has exited.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/su.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (not Linux): kill(0) is all we have
  }
}

export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
}
