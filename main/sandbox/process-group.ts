/**
 * Process-group signalling. Every child leads its own process group — spawned `detached` (setsid), or
 * for a local MCP server through group-spawn.ts (setpgid in the daemon's session) — so its pid is also its
 * process-group id and a negative pid reaches the command, its pipes and its background children
 * at once (reference §2.3: "the whole group is killed on exit, timeout, cancel, output cap or
 * shutdown"). A child that calls setsid itself leaves the group; only the jail's pid namespace
 * catches that one.
 */

/** Sends `signal` to the group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Whether any process of the group is still alive (signal 0 probes without delivering). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM now, SIGKILL after `graceMs` if anything of the group is left. Returns a cancel function
 * for the pending SIGKILL (not needed normally: killing an empty group is a no-op).
 */
export function terminateGroup(pgid: number, graceMs: number): () => void {
  if (!signalGroup(pgid, 'SIGTERM')) return () => {};
  const timer = setTimeout(() => {
    if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  }, graceMs);
  timer.unref();
  return () => clearTimeout(timer);
}
