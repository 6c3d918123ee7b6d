import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HomePaths } from '../../config/home.js';
import { FermixError } from '../../core/errors.js';
import { startDaemon } from '../../daemon/compose.js';
import { isProcessAlive, readPid } from '../../daemon/pid-lock.js';
import { packageRoot } from '../../daemon/package-root.js';
import { callDaemon, daemonNotRunning } from '../control-client.js';
import { EXIT, type CliIo } from '../output.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `fermix daemon`: runs in the foreground until SIGTERM/SIGINT or `fermix stop`. */
export async function runDaemonVerb(io: CliIo, options: { home: string; port?: number; verbose: boolean }): Promise<number> {
  const daemon = await startDaemon({ home: options.home, port: options.port, verbose: options.verbose });
  io.out(`Fermix daemon running (pid ${process.pid}, home ${daemon.paths.home}).`);
  io.out(`Open in a browser: ${daemon.url}`);
  const onSignal = (signal: string) => void daemon.stop(`received ${signal}`);
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  await daemon.stopped;
  return EXIT.ok;
}

export function runningPid(paths: HomePaths): number | undefined {
  const pid = readPid(paths.pidFile);
  return pid !== undefined && isProcessAlive(pid) ? pid : undefined;
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isProcessAlive(pid)) return true;
    await sleep(50);
  }
  return !isProcessAlive(pid);
}

/** Asks the daemon to stop, waits for its pid to be gone, and escalates to SIGKILL after the grace period. */
export async function stopDaemon(io: CliIo, paths: HomePaths, graceMs: number): Promise<number> {
  const pid = runningPid(paths);
  if (pid === undefined) throw daemonNotRunning(paths.socket);
  try {
    await callDaemon(paths.socket, 'system.stop', {}, 3000);
  } catch {
    // The socket may be wedged; a signal still works.
    process.kill(pid, 'SIGTERM');
  }
  if (await waitForExit(pid, graceMs)) {
    io.out(`Fermix daemon stopped (pid ${pid}).`);
    return EXIT.ok;
  }
  io.err(`The daemon (pid ${pid}) did not stop within ${graceMs} ms; sending SIGKILL.`);
  process.kill(pid, 'SIGKILL');
  if (await waitForExit(pid, 5000)) {
    io.out(`Fermix daemon killed (pid ${pid}).`);
    return EXIT.ok;
  }
  throw new FermixError({ code: 'stop_failed', message: `The daemon (pid ${pid}) is still alive after SIGKILL.`, hint: `Check the process with \`ps -p ${pid}\`.` });
}

/** Starts a detached daemon and waits until its socket answers; output goes to the log file. */
export async function startDetached(io: CliIo, paths: HomePaths, port: number | undefined): Promise<number> {
  const bin = join(packageRoot(), 'bin', 'fermix.mjs');
  const args = [bin, 'daemon', ...(port === undefined ? [] : ['--port', String(port)])];
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env: { ...process.env, FERMIX_HOME: paths.home } });
  child.unref();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      await callDaemon(paths.socket, 'system.health', {}, 1000);
      const info = existsSync(paths.runtimeInfo) ? (JSON.parse(readFileSync(paths.runtimeInfo, 'utf8')) as { url?: string }) : {};
      io.out(`Fermix daemon started (pid ${child.pid}).${info.url ? ` Open: ${info.url}` : ''}`);
      return EXIT.ok;
    } catch {
      await sleep(100);
    }
  }
  throw new FermixError({ code: 'start_failed', message: 'The daemon did not come up within 15 s.', hint: 'Run `fermix daemon --verbose` in the foreground to see why, or `fermix logs -n 50`.' });
}

export async function restartDaemon(io: CliIo, paths: HomePaths, graceMs: number, port: number | undefined): Promise<number> {
  if (runningPid(paths) !== undefined) await stopDaemon(io, paths, graceMs);
  return startDetached(io, paths, port);
}
