/**
 * Resource limits for jailed commands (`[sandbox.jail.limits]`): what bubblewrap's namespaces do not
 * contain. Without them a fork bomb inside the jail still takes the whole machine down, and a
 * runaway allocation or `dd of=big` still fills memory or disk.
 *
 * Two mechanisms, chosen per machine once at start-up (measured on Debian 12, kernel 6.x):
 * - rlimits, set by util-linux `prlimit` INSIDE the jail (after bwrap made the user namespace):
 *   open files, data segment (memory), CPU seconds per process, largest file written, and — for a
 *   non-root account — the process count. RLIMIT_NPROC is counted per user namespace (ucounts), so
 *   the limit counts the command's own processes, not the person's whole desktop session.
 *   Memory is RLIMIT_DATA, not RLIMIT_AS: V8, the JVM and WASM runtimes reserve tens of GiB of
 *   address space they never touch, and an address-space cap breaks them.
 * - a cgroup with `pids.max` for the process count when the daemon may create one (root with the
 *   cgroup v1 pids hierarchy, as on our CI machines). The kernel never applies RLIMIT_NPROC to root
 *   (kernel/fork.c exempts INIT_USER), so for root a cgroup is the only real process limit; without
 *   one the status says plainly that the process count is not limited.
 * The runner's own output cap (1 MiB, runner.ts) and timeout cover the command's output and wall time.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findExecutable } from './executables.js';
import { z } from 'zod';

export const jailLimitsSchema = z.strictObject({
  /** Tasks (processes and threads) one command may have at once. */
  max_processes: z.number().int().min(16).max(1_000_000).default(1024),
  /** Data segment per process (heap and private mappings), MiB. */
  max_memory_mb: z.number().int().min(64).max(1_048_576).default(8192),
  max_open_files: z.number().int().min(64).max(1_048_576).default(4096),
  /** CPU time per process, seconds (the runner's wall-clock timeout applies on top). */
  max_cpu_seconds: z.number().int().min(1).max(86_400).default(1800),
  /** Largest file a command may write, MiB. */
  max_file_size_mb: z.number().int().min(1).max(1_048_576).default(4096),
});
export type JailLimits = z.infer<typeof jailLimitsSchema>;

export type ProcessLimitMechanism = 'cgroup' | 'rlimit' | 'none';

export interface LimitSupport {
  /** prlimit(1) path, when found: without it no rlimit is applied. */
  prlimit?: string;
  processes: ProcessLimitMechanism;
  /** The cgroup v1 pids hierarchy folder this daemon creates per-command cgroups under. */
  cgroupParent?: string;
  /** One sentence for `sandbox status` and doctor. */
  summary: string;
}

export interface LimitProbeOptions {
  searchPath?: string;
  isRoot?: boolean;
  /** Where the cgroup v1 pids hierarchy is mounted (tests point elsewhere). */
  pidsMount?: string;
}

export function detectLimitSupport(limits: JailLimits, options: LimitProbeOptions = {}): LimitSupport {
  const prlimit = findExecutable('prlimit', options.searchPath ?? process.env.PATH ?? '');
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  const cgroupParent = isRoot ? pidsCgroupParent(options.pidsMount ?? '/sys/fs/cgroup/pids') : undefined;
  const processes: ProcessLimitMechanism = cgroupParent !== undefined ? 'cgroup' : prlimit !== undefined && !isRoot ? 'rlimit' : 'none';
  const parts: string[] = [];
  if (processes === 'none') {
    parts.push(isRoot ? 'process count NOT limited (root ignores RLIMIT_NPROC and no pids cgroup is writable)' : 'process count NOT limited (prlimit missing)');
  } else {
    parts.push(`at most ${limits.max_processes} processes (${processes === 'cgroup' ? 'pids cgroup' : 'rlimit'})`);
  }
  if (prlimit !== undefined) {
    parts.push(`${limits.max_memory_mb} MiB memory, ${limits.max_open_files} open files, ${limits.max_cpu_seconds} s CPU and ${limits.max_file_size_mb} MiB files per process`);
  } else {
    parts.push('no memory, file or CPU limits (install util-linux for prlimit)');
  }
  return { prlimit, processes, cgroupParent, summary: `Jailed commands: ${parts.join('; ')}.` };
}

/**
 * `prlimit --nofile=… -- ` to put between bwrap's `--` and the command. Each value is clamped to
 * the daemon's own hard limit: an unprivileged process cannot raise a hard limit, and prlimit would
 * refuse to start the command at all.
 */
export function prlimitArgv(limits: JailLimits, support: LimitSupport, hardLimits = readHardLimits()): string[] {
  if (support.prlimit === undefined) return [];
  const MiB = 1024 * 1024;
  const wanted: Array<[string, string, number]> = [
    ['nofile', 'Max open files', limits.max_open_files],
    ['data', 'Max data size', limits.max_memory_mb * MiB],
    ['cpu', 'Max cpu time', limits.max_cpu_seconds],
    ['fsize', 'Max file size', limits.max_file_size_mb * MiB],
    ['core', 'Max core file size', 0],
  ];
  if (support.processes === 'rlimit') wanted.push(['nproc', 'Max processes', limits.max_processes]);
  const args = [support.prlimit];
  for (const [flag, row, value] of wanted) {
    const hard = hardLimits.get(row);
    args.push(`--${flag}=${hard === undefined ? value : Math.min(value, hard)}`);
  }
  return [...args, '--'];
}

export interface Containment {
  /** argv prefix that moves the command into its cgroup before anything else runs. */
  prefix: string[];
  /** Kills whatever is still in the cgroup and removes it, retrying until its tasks have exited (removeCgroup); safe to call twice. */
  release(): void;
}

/**
 * A fresh pids cgroup for one command. The prefix is a tiny `sh` that writes its own pid into
 * `cgroup.procs` and then execs bwrap, so the command is inside before its first fork (moving the
 * child in after spawn would race the bomb).
 */
export function createPidsContainment(support: LimitSupport, maxProcesses: number): Containment | undefined {
  if (support.processes !== 'cgroup' || support.cgroupParent === undefined) return undefined;
  const dir = path.join(support.cgroupParent, `cmd-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'pids.max'), String(maxProcesses));
  } catch {
    return undefined;
  }
  let released = false;
  return {
    prefix: ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir],
    release() {
      if (released) return;
      released = true;
      removeCgroup(dir);
    },
  };
}

/** Waits between attempts to remove a cgroup whose killed tasks are still exiting (~6 s in all). */
const REMOVE_RETRY_MS = [5, 10, 20, 50, 100, 200, 400, 800, 1600, 2800];

export interface CgroupOps {
  readProcs(dir: string): string[];
  kill(pid: number): void;
  rmdir(dir: string): void;
  later(fn: () => void, ms: number): void;
}

const realOps: CgroupOps = {
  readProcs: (dir) => readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean),
  kill: (pid) => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  },
  rmdir: (dir) => rmdirSync(dir),
  later: (fn, ms) => setTimeout(fn, ms).unref(),
};

/**
 * Kills what is left in a cgroup and removes it. A fork bomb's tasks take a while to exit after
 * SIGKILL and rmdir answers EBUSY until the last is gone, so removal retries on timers rather than
 * spinning (a synchronous loop finished before any task had died and left the cgroup behind).
 */
export function removeCgroup(dir: string, ops: CgroupOps = realOps, attempt = 0): void {
  try {
    for (const pid of ops.readProcs(dir)) ops.kill(Number(pid));
    ops.rmdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    // EBUSY: killed tasks are still exiting. Kill again next time: a task mid-fork may have added one.
    if (attempt < REMOVE_RETRY_MS.length) ops.later(() => removeCgroup(dir, ops, attempt + 1), REMOVE_RETRY_MS[attempt]);
  }
}

/**
 * Cgroups a crashed daemon left behind (`cmd-<pid>-*` whose pid no longer runs): their tasks are
 * killed and the folders removed, so they do not pile up under the parent across restarts.
 */
export function sweepStaleCgroups(parent: string, ops: CgroupOps = realOps, isAlive: (pid: number) => boolean = pidAlive): number {
  let swept = 0;
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return 0;
  }
  for (const name of names) {
    const match = /^cmd-(\d+)-[0-9a-f]+$/.exec(name);
    if (!match || isAlive(Number(match[1]))) continue;
    removeCgroup(path.join(parent, name), ops);
    swept += 1;
  }
  return swept;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads a cgroup's pids.events `max` counter: how many forks the limit refused (tests, doctor). */
export function refusedForks(dir: string): number {
  const match = /^max (\d+)$/m.exec(readFileSync(path.join(dir, 'pids.events'), 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** `<mount>/fermix`, created once; undefined unless the pids controller is mounted and writable. */
function pidsCgroupParent(mount: string): string | undefined {
  try {
    accessSync(path.join(mount, 'cgroup.procs'), constants.W_OK);
    const parent = path.join(mount, 'fermix');
    mkdirSync(parent, { recursive: true });
    accessSync(path.join(parent, 'pids.max'), constants.W_OK);
    sweepStaleCgroups(parent);
    return parent;
  } catch {
    return undefined;
  }
}

/** Hard limits of this process, from /proc/self/limits ("unlimited" rows are left out). */
function readHardLimits(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const line of readFileSync('/proc/self/limits', 'utf8').split('\n').slice(1)) {
      const match = /^(.+?)\s{2,}(\S+)\s+(\S+)/.exec(line);
      if (match && /^\d+$/.test(match[3])) out.set(match[1].trim(), Number(match[3]));
    }
  } catch {
    // not Linux: no clamping
  }
  return out;
}

