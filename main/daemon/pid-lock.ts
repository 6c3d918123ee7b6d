import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { FermixError } from '../core/errors.js';

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

export function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One daemon per home. The pid file is created with O_EXCL so two daemons starting at once cannot
 * both win; a pid file whose process is gone (a crash, SIGKILL) is stale and replaced.
 */
export function acquirePidLock(file: string): { release(): void } {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return {
        release() {
          if (readPid(file) === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readPid(file);
      if (holder !== undefined && holder !== process.pid && isProcessAlive(holder)) {
        throw new FermixError({
          code: 'daemon_already_running',
          message: `A Fermix daemon is already running for this home (pid ${holder}).`,
          hint: 'Use it (`fermix status`), or stop it first with `fermix stop`.',
          data: { pid: holder },
        });
      }
      rmSync(file, { force: true });
    }
  }
  throw new FermixError({
    code: 'daemon_lock_failed',
    message: `Could not take the daemon lock ${file}.`,
    hint: 'Another daemon may be starting right now; run `fermix status` in a moment.',
  });
}
