/**
 * The store benchmarks' fsync counter against real syncs: strace attached to this process sees each
 * fsync and fdatasync, from the main thread and from libuv's pool, and nothing else.
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countFsyncs, parseSyncs } from './store-fsync-counter.js';

describe('fsync counter', () => {
  it('counts the syncs of a window, main thread and thread pool, and leaves out its markers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermix-fsync-count-'));
    const counter = await countFsyncs();
    try {
      await counter.reset();
      const fd = openSync(join(dir, 'file'), 'w');
      writeSync(fd, 'x');
      fsyncSync(fd);
      fsyncSync(fd);
      const handle = await open(join(dir, 'other'), 'w');
      await handle.write('y');
      await handle.datasync();
      await handle.close();
      expect((await counter.read()).count).toBe(3);
      await counter.reset();
      expect((await counter.read()).count).toBe(0);
      fsyncSync(fd); // between windows: not counted
      await counter.reset();
      fsyncSync(fd);
      const after = await counter.read();
      expect(after.count).toBe(1);
      expect(after.blockedMs).toBeGreaterThanOrEqual(0);
      closeSync(fd);
    } finally {
      await counter.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("joins a sync strace had to split around another thread's call", () => {
    const log = ['101 fsync(7 <unfinished ...>', '102 fdatasync(9) = 0 <0.000200>', '101 <... fsync resumed>) = 0 <0.001500>', '101 fsync(7) = 0 <0.000100>'].join('\n');
    expect(parseSyncs(log)).toEqual([{ fd: 9, ms: 0.2 }, { fd: 7, ms: 1.5 }, { fd: 7, ms: 0.1 }]);
  });
});
