/**
 * Runs one shell command the way Fermix's shell tool does (reference §2.3 "Process execution", §4
 * shell row): `sh -c` with a replaced environment, stderr merged into the output, each command in
 * its own process group, and the whole group killed on exit, timeout, abort, output cap or
 * shutdown. The runner is a factory (no module state): the composition root owns one and calls
 * `shutdownAll()` when the daemon stops.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { FermixError } from '../core/errors.js';
import { groupAlive, terminateGroup } from './process-group.js';
import type { Redactor } from './redactor.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Between SIGTERM and SIGKILL: long enough for a clean exit, short enough not to stall a turn. */
export const DEFAULT_GRACE_MS = 2_000;
const MAX_COMMAND_BYTES = 128 * 1024;

/** Turns the plain `sh -c` argv into a jailed one (jail.ts); absent when the jail is off. */
export interface CommandWrapper {
  wrap(argv: string[], cwd: string): string[];
  /** Per-command containment (a pids cgroup, jail-limits.ts), entered before the jail starts. */
  contain?(): { prefix: string[]; release(): void } | undefined;
}

export interface RunOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
  jail?: CommandWrapper;
  /** Applied before truncation, so a secret is never cut in half and half-kept. */
  redact?: Redactor;
}

export interface RunResult {
  exit_code: number | null;
  /** The signal that ended the command, when it did not exit by itself. */
  signal: string | null;
  output: string;
  truncated: boolean;
  timed_out: boolean;
  aborted: boolean;
  duration_ms: number;
  jailed: boolean;
}

export interface CommandRunner {
  runCommand(options: RunOptions): Promise<RunResult>;
  /** Kills every running command's group and waits for them to finish. */
  shutdownAll(): Promise<void>;
  readonly activeCount: number;
}

type StopReason = 'timeout' | 'abort' | 'output_cap' | 'shutdown';

export function createCommandRunner(options: { graceMs?: number } = {}): CommandRunner {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const active = new Map<number, { stop: (reason: StopReason) => void; done: Promise<unknown> }>();
  let shuttingDown = false;

  const runCommand = async (run: RunOptions): Promise<RunResult> => {
    validate(run);
    if (shuttingDown) {
      throw new FermixError({ code: 'cancelled', message: 'The daemon is shutting down; the command was not started.', hint: 'Start the daemon again with `fermix daemon` (or `fermix restart`).' });
    }
    const timeoutMs = run.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxOutput = run.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const keepBytes = maxOutput + (run.redact?.lookahead ?? 0);
    // `exec 2>&1` on its own line: a true merge in write order, and it runs before the command is parsed.
    const plain = ['/bin/sh', '-c', `exec 2>&1\n${run.command}`];
    const containment = run.jail?.contain?.();
    const argv = run.jail ? [...(containment?.prefix ?? []), ...run.jail.wrap(plain, run.cwd)] : plain;
    const started = Date.now();

    const child = spawn(argv[0], argv.slice(1), { cwd: run.cwd, env: run.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let stopped: StopReason | undefined;
    // Pending SIGKILL timers; cancelled once the group is empty so a recycled pgid is never hit.
    const pendingKills: Array<() => void> = [];

    const stop = (reason: StopReason) => {
      if (stopped !== undefined || child.pid === undefined) return;
      stopped = reason;
      pendingKills.push(terminateGroup(child.pid, graceMs));
    };
    const onData = (chunk: Buffer) => {
      if (kept >= keepBytes) return;
      const room = keepBytes - kept;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      kept += Math.min(room, chunk.length);
      if (kept >= keepBytes) {
        truncated = true;
        stop('output_cap');
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData); // bwrap's own errors; the command's stderr is already on stdout
    // A pipe error (EPIPE, a reset) must not become an unhandled 'error' that ends the daemon; 'close' still settles the run.
    child.stdout?.on('error', () => {});
    child.stderr?.on('error', () => {});

    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('abort');
    if (run.signal?.aborted) onAbort();
    run.signal?.addEventListener('abort', onAbort, { once: true });

    const done = new Promise<RunResult>((resolve, reject) => {
      let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
      let drainTimer: NodeJS.Timeout | undefined;
      child.on('error', (error: NodeJS.ErrnoException) => {
        cleanup();
        reject(error.code === 'ENOENT' ? notFound(argv[0]) : new FermixError({ code: 'exit_nonzero', message: `Command could not start: ${error.message}.`, hint: 'Run `fermix doctor` to check the sandbox.', cause: error }));
      });
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        // Background children left behind go with their parent (Fermix kills the group on exit).
        if (child.pid !== undefined && groupAlive(child.pid)) pendingKills.push(terminateGroup(child.pid, graceMs));
        // A straggler that escaped the group could hold our pipes open forever: stop waiting.
        drainTimer = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, graceMs * 2);
      });
      child.on('close', () => finish());
      const cleanup = () => {
        clearTimeout(timer);
        if (drainTimer) clearTimeout(drainTimer);
        containment?.release();
        run.signal?.removeEventListener('abort', onAbort);
        if (child.pid !== undefined) active.delete(child.pid);
      };
      let finished = false;
      const finish = () => {
        if (finished || exit === undefined) return;
        finished = true;
        cleanup();
        if (!groupAlive(child.pid as number)) for (const cancel of pendingKills) cancel();
        const text = Buffer.concat(chunks).toString('utf8');
        const redacted = run.redact ? run.redact(text) : text;
        const cut = cutToBytes(redacted, maxOutput);
        resolve({
          exit_code: exit.code,
          signal: exit.signal,
          output: cut.text,
          truncated: truncated || cut.cut,
          timed_out: stopped === 'timeout',
          aborted: stopped === 'abort' || stopped === 'shutdown',
          duration_ms: Date.now() - started,
          jailed: run.jail !== undefined,
        });
      };
    });
    if (child.pid !== undefined) active.set(child.pid, { stop, done: done.catch(() => undefined) });
    return done;
  };

  return {
    runCommand,
    async shutdownAll() {
      shuttingDown = true;
      const running = [...active.values()];
      for (const entry of running) entry.stop('shutdown');
      await Promise.all(running.map((entry) => entry.done));
    },
    get activeCount() {
      return active.size;
    },
  };
}

function validate(run: RunOptions): void {
  if (typeof run.command !== 'string' || run.command.trim() === '' || run.command.includes('\0') || Buffer.byteLength(run.command) > MAX_COMMAND_BYTES) {
    throw new FermixError({
      code: 'invalid_command',
      message: run.command?.includes?.('\0') ? 'Command contains a NUL byte.' : `Command is empty or longer than ${MAX_COMMAND_BYTES} bytes.`,
      hint: 'Pass one non-empty shell command line in `command`.',
    });
  }
  let isDir = false;
  try {
    isDir = path.isAbsolute(run.cwd) && statSync(run.cwd).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new FermixError({
      code: 'invalid_working_dir',
      message: `Working directory does not exist or is not a folder: ${run.cwd}.`,
      hint: 'Pass an existing folder inside the sandbox roots as `working_dir` (see `fermix sandbox status`).',
    });
  }
}

/** Cuts at a UTF-8 character boundary at or below `max` bytes. */
function cutToBytes(text: string, max: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return { text, cut: false };
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), cut: true };
}

function notFound(executable: string, extra: Record<string, unknown> = {}): FermixError {
  return new FermixError({
    code: 'executable_not_found',
    message: `Executable not found: ${executable}.`,
    hint: 'Install it, or check the PATH the sandbox passes (`fermix sandbox status`).',
    data: { ...extra, executable },
  });
}

/**
 * The shell tool's failure, if any (reference §4): `timeout`, `cancelled`, `executable_not_found`
 * (sh's exit 127), `exit_nonzero`. Kept apart from runCommand so callers can still read the result.
 */
export function commandFailure(result: RunResult, timeoutMs = DEFAULT_TIMEOUT_MS): FermixError | undefined {
  const data = { output: result.output, exit_code: result.exit_code, truncated: result.truncated, duration_ms: result.duration_ms };
  if (result.timed_out) {
    return new FermixError({ code: 'timeout', message: `Command timed out after ${timeoutMs}ms`, hint: 'Pass a larger `timeout_ms`, or run the long part in the background with output to a file.', data });
  }
  if (result.aborted) return new FermixError({ code: 'cancelled', message: 'Command was cancelled.', hint: 'Its process group was stopped; run it again if it is still needed.', data });
  if (result.exit_code === 127) {
    const missing = /(?:^|\n)(?:\/bin\/)?sh: (?:\d+: )?([^:\n]+): (?:command )?not found/.exec(result.output)?.[1];
    if (missing !== undefined) return notFound(missing, data);
  }
  if (result.exit_code !== 0) {
    const status = result.exit_code === null ? `signal ${result.signal}` : `exit code ${result.exit_code}`;
    return new FermixError({ code: 'exit_nonzero', message: `Command failed (${status}):\n${result.output}`, hint: 'Read the output above; fix the command or its inputs and run it again.', data });
  }
  return undefined;
}
