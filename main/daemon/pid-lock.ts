import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { FermixError } from '../core/errors.js';

interface ProcStat {
  /** R, S, D, Z (zombie), X (dead), … */
  state: string;
  /** Clock ticks after boot at which the process started: with the pid, it names one process. */
  startTime: string;
}

/** Linux only: /proc/<pid>/stat, or undefined where there is no /proc or no such process. */
function procStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], startTime: fields[19] };
  } catch {
    return undefined;
  }
}

function procCmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return undefined;
  }
}

/** Whether the pid exists in the process table (a zombie counts: `fermix stop` waits for it to go). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else — still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the pid is still running: a killed process its parent has not reaped yet (a zombie) is not. */
export function isProcessRunning(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  const state = procStat(pid)?.state;
  return state !== 'Z' && state !== 'X';
}

export function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The pid file's second line: the holder's start time, written where /proc exists. */
function readStartTime(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').split('\n')[1]?.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the pid file names a Fermix daemon that is still running. A dead or zombie pid is not;
 * on Linux a live pid is the holder only if its start time matches the one recorded beside it (a
 * reused pid has another), and a pid file without one (older format) counts only when the process
 * looks like Fermix. Without /proc (macOS), a live pid is taken at its word.
 */
export function lockHolderAlive(file: string): number | undefined {
  const pid = readPid(file);
  if (pid === undefined || pid === process.pid || !isProcessRunning(pid)) return undefined;
  const stat = procStat(pid);
  if (stat === undefined) return pid;
  const recorded = readStartTime(file);
  if (recorded !== undefined) return recorded === stat.startTime ? pid : undefined;
  return /fermix/i.test(procCmdline(pid) ?? '') ? pid : undefined;
}

/**
 * unlink, where a missing file is fine. Not fs.rmSync: its first call loads node's rimraf module, which cost
 * the daemon's start-up ~0.4 ms for removing one staged file (docs/decisions/0027).
 */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * One daemon per home. The pid file is created with O_EXCL so two daemons starting at once cannot
 * both win; a pid file whose holder is gone (a crash, SIGKILL, a reused pid) is stale and replaced.
 */
export function acquirePidLock(file: string): { release(): void } {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // Written whole to a private file, then linked into place: link() fails with EEXIST like O_EXCL,
    // and a daemon starting at the same moment never reads a half-written (empty) pid file.
    const staged = `${file}.${process.pid}`;
    const fd = openSync(staged, 'w', 0o600);
    const startTime = procStat(process.pid)?.startTime;
    writeSync(fd, `${process.pid}\n${startTime ? `${startTime}\n` : ''}`);
    closeSync(fd);
    try {
      linkSync(staged, file);
      removeFile(staged);
      return {
        release() {
          if (readPid(file) === process.pid) removeFile(file);
        },
      };
    } catch (error) {
      removeFile(staged);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolderAlive(file);
      if (holder !== undefined) {
        throw new FermixError({
          code: 'daemon_already_running',
          message: `A Fermix daemon is already running for this home (pid ${holder}).`,
          hint: 'Use it (`fermix status`), or stop it first with `fermix stop`.',
          data: { pid: holder },
        });
      }
      removeFile(file);
    }
  }
  throw new FermixError({
    code: 'daemon_lock_failed',
    message: `Could not take the daemon lock ${file}.`,
    hint: 'Another daemon may be starting right now; run `fermix status` in a moment.',
  });
}
