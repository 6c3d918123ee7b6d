import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HomePaths } from '../../config/home.js';
import { FermixError } from '../../core/errors.js';
import { startDaemon } from '../../daemon/compose.js';
import { readPid } from '../../daemon/pid-lock.js';
import { packageRoot } from '../../daemon/package-root.js';
import { callDaemon, daemonNotRunning } from '../control-client.js';
import { EXIT, type CliIo } from '../output.js';
import { isRunning, wrapperChain } from '../parent-watch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Set by `startDetached` (and service units): this daemon is meant to outlive the process that started it. */
export const DETACHED_ENV = 'FERMIX_DAEMON_DETACHED';
/**
 * Emitted on `process` once the daemon answers: bin/fermix.cjs then writes its V8 code cache and switches
 * V8 to its memory-saving mode, neither of which may slow the start itself.
 */
export const DAEMON_READY_EVENT = 'fermix:daemon-ready';
/** How often a foreground daemon checks that the wrapper which started it is still there. */
const PARENT_POLL_MS = 500;

/**
 * A foreground daemon under a wrapper (`npm start`, `npx fermix daemon`, `npm run daemon`) stops when
 * that wrapper dies: a SIGKILLed wrapper cannot pass a signal on, and npm does not always forward one,
 * which left orphaned daemons holding the port and the home's lock. `nohup`/service runs set DETACHED_ENV.
 */
function watchesParent(env: NodeJS.ProcessEnv): boolean {
  if (env[DETACHED_ENV] === '1') return false;
  return env.FERMIX_WATCH_PARENT === '1' || env.npm_command === 'exec' || env.npm_command === 'start' || env.npm_command === 'run-script' || env.npm_command === 'run';
}

/** `fermix daemon`: runs in the foreground until SIGTERM/SIGINT/SIGHUP, `fermix stop`, or its wrapper dies. */
export async function runDaemonVerb(io: CliIo, options: { home: string; port?: number; verbose: boolean }): Promise<number> {
  // The signal handlers come first: a SIGTERM that arrives while the daemon starts, or the moment its URL
  // is printed, must stop it in order (logged, database closed), never kill it mid-write.
  const started: { daemon?: Awaited<ReturnType<typeof startDaemon>> } = {};
  let pendingSignal: string | undefined;
  const onSignal = (signal: string) => {
    if (started.daemon) void started.daemon.stop(`received ${signal}`);
    else pendingSignal ??= signal;
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  if (process.env[DETACHED_ENV] !== '1') process.once('SIGHUP', () => onSignal('SIGHUP'));
  const daemon = await startDaemon({ home: options.home, port: options.port, verbose: options.verbose });
  started.daemon = daemon;
  io.out(`Fermix daemon running (pid ${process.pid}, home ${daemon.paths.home}).`);
  io.out(`Open in a browser: ${daemon.url}`);
  (process as NodeJS.EventEmitter).emit(DAEMON_READY_EVENT); // a custom event, outside process.emit's typed overloads
  if (pendingSignal) void daemon.stop(`received ${pendingSignal}`);
  let parentWatch: NodeJS.Timeout | undefined;
  if (watchesParent(process.env)) {
    const chain = wrapperChain();
    parentWatch = setInterval(() => {
      const gone = chain.find((pid) => !isRunning(pid));
      if (gone === undefined) return;
      clearInterval(parentWatch);
      void daemon.stop(`its wrapper process ${gone} exited`);
    }, PARENT_POLL_MS);
    parentWatch.unref();
  }
  await daemon.stopped;
  clearInterval(parentWatch);
  // The orderly shutdown is done (servers, sockets, database and log closed). What can still hold the
  // event loop are idle keep-alive sockets and library timers (undici keeps idle connections ~4 s),
  // which made the process linger 6–11 s after SIGTERM and `fermix stop` wait for it. Exit promptly,
  // after a moment for stdout to drain; unref'd so a loop that empties sooner ends sooner.
  setTimeout(() => process.exit(EXIT.ok), 100).unref();
  return EXIT.ok;
}

export function runningPid(paths: HomePaths): number | undefined {
  const pid = readPid(paths.pidFile);
  return pid !== undefined && isRunning(pid) ? pid : undefined;
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await sleep(20);
  }
  return !isRunning(pid);
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
  const bin = join(packageRoot(), 'bin', 'fermix.cjs');
  const args = [bin, 'daemon', ...(port === undefined ? [] : ['--port', String(port)])];
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env: { ...process.env, FERMIX_HOME: paths.home, [DETACHED_ENV]: '1' } });
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
