/**
 * Removing a command's pids cgroup: rmdir answers EBUSY until the killed tasks have exited, so removal
 * must keep trying on timers, killing again each time, and give up only after a bounded wait.
 * The real kernel behaviour is proven by jail-limits.test.ts (the fork bomb); this pins the schedule.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeCgroup, sweepStaleCgroups, type CgroupOps } from './jail-limits.js';

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

/** A cgroup whose tasks die `exitsAfter` attempts after the first kill. */
function fakeCgroup(exitsAfter: number) {
  const log: string[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  let attempts = 0;
  let removed = false;
  const ops: CgroupOps = {
    readProcs: () => (removed ? [] : attempts >= exitsAfter ? [] : ['101', '102']),
    kill: (pid) => log.push(`kill ${pid}`),
    rmdir: () => {
      attempts += 1;
      if (removed) throw errno('ENOENT');
      if (attempts <= exitsAfter) throw errno('EBUSY');
      removed = true;
      log.push('rmdir');
    },
    later: (fn, ms) => timers.push({ fn, ms }),
  };
  const runTimers = () => {
    while (timers.length > 0) timers.shift()?.fn();
  };
  return { ops, log, timers, runTimers, isRemoved: () => removed };
}

describe('removeCgroup', () => {
  it('removes at once when the cgroup is already empty', () => {
    const cg = fakeCgroup(0);
    removeCgroup('/cg/cmd-1-aa', cg.ops);
    expect(cg.isRemoved()).toBe(true);
    expect(cg.timers).toHaveLength(0);
  });

  it('retries on timers while rmdir says EBUSY, killing again each time, until the tasks are gone', () => {
    const cg = fakeCgroup(3);
    const delays: number[] = [];
    const ops: CgroupOps = { ...cg.ops, later: (fn, ms) => (delays.push(ms), cg.ops.later(fn, ms)) };
    removeCgroup('/cg/cmd-1-aa', ops);
    expect(cg.isRemoved()).toBe(false); // nothing spins synchronously
    cg.runTimers();
    expect(cg.isRemoved()).toBe(true);
    expect(delays).toEqual([5, 10, 20]);
    expect(cg.log.filter((line) => line === 'kill 101')).toHaveLength(3);
  });

  it('gives up after a bounded number of attempts when the tasks never exit', () => {
    const cg = fakeCgroup(Number.POSITIVE_INFINITY);
    const delays: number[] = [];
    removeCgroup('/cg/cmd-1-aa', { ...cg.ops, later: (fn, ms) => (delays.push(ms), cg.ops.later(fn, ms)) });
    cg.runTimers();
    expect(cg.isRemoved()).toBe(false);
    expect(delays.length).toBe(10);
    expect(delays.reduce((a, b) => a + b, 0)).toBeGreaterThan(5_000);
  });

  it('treats a cgroup that is already gone as removed', () => {
    const ops: CgroupOps = { readProcs: () => { throw errno('ENOENT'); }, kill: () => {}, rmdir: () => {}, later: () => { throw new Error('must not retry'); } };
    expect(() => removeCgroup('/cg/cmd-1-aa', ops)).not.toThrow();
  });
});

describe('sweepStaleCgroups', () => {
  it('removes only the cgroups of daemons that no longer run, and leaves other names alone', () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'fermix-cgroups-'));
    try {
      for (const name of ['cmd-111-0a1b2c3d', 'cmd-222-deadbeef', 'notes', 'cmd-abc-00']) mkdirSync(path.join(parent, name));
      const removed: string[] = [];
      const ops: CgroupOps = { readProcs: () => [], kill: () => {}, rmdir: (dir) => (removed.push(path.basename(dir)), rmSync(dir, { recursive: true })), later: () => {} };
      expect(sweepStaleCgroups(parent, ops, (pid) => pid === 222)).toBe(1);
      expect(removed).toEqual(['cmd-111-0a1b2c3d']);
      expect(readdirSync(parent).sort()).toEqual(['cmd-222-deadbeef', 'cmd-abc-00', 'notes']);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
