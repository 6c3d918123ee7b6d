/**
 * Which processes a foreground daemon must outlive no longer than: its wrapper chain. `npx fermix
 * daemon` runs as npm → sh → node and `npm start` as npm → sh → start.mjs → node; a SIGKILLed npm
 * passes no signal on and its `sh` keeps waiting, so watching only the direct parent misses it. The
 * chain runs from the parent up to the nearest npm process (Linux: /proc); elsewhere just the parent.
 */
import { readFileSync } from 'node:fs';

const MAX_DEPTH = 5;

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may contain spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function isNpm(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv.some((arg) => /(^|\/)npm(-cli\.js)?$/.test(arg) || /^npm (exec|start|run|test)/.test(arg));
  } catch {
    return false;
  }
}

/**
 * Alive and not a zombie. A process whose parent died is reparented to PID 1, and a container's PID 1
 * may reap it seconds later: kill(pid, 0) still succeeds on the zombie, so it looked alive.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists under another account.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The pids to watch, nearest first. */
export function wrapperChain(parent: number = process.ppid): number[] {
  if (process.platform !== 'linux') return [parent];
  const chain: number[] = [];
  for (let pid: number | undefined = parent; pid !== undefined && chain.length < MAX_DEPTH; pid = parentOf(pid)) {
    chain.push(pid);
    if (isNpm(pid)) return chain;
  }
  // No npm above us (FERMIX_WATCH_PARENT from another wrapper): the direct parent is the wrapper.
  return [parent];
}
