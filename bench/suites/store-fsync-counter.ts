/**
 * A measuring instrument for the store benchmarks (never product code): node-sqlite3-wasm does its
 * file I/O through Node's fs module in JS, so wrapping fs.fsyncSync / fs.fdatasyncSync on that same
 * module object counts every sync SQLite asks for in this process, and how long each one blocked.
 */
import fs from 'node:fs';

export interface FsyncCounter {
  count: number;
  blockedMs: number;
  reset(): void;
  restore(): void;
}

export function countFsyncs(): FsyncCounter {
  const originalFsync = fs.fsyncSync;
  const originalFdatasync = fs.fdatasyncSync;
  const counter: FsyncCounter = {
    count: 0,
    blockedMs: 0,
    reset() {
      counter.count = 0;
      counter.blockedMs = 0;
    },
    restore() {
      fs.fsyncSync = originalFsync;
      fs.fdatasyncSync = originalFdatasync;
    },
  };
  const wrap = (original: (fd: number) => void) => (fd: number) => {
    const started = process.hrtime.bigint();
    try {
      original(fd);
    } finally {
      counter.count += 1;
      counter.blockedMs += Number(process.hrtime.bigint() - started) / 1e6;
    }
  };
  fs.fsyncSync = wrap(originalFsync);
  fs.fdatasyncSync = wrap(originalFdatasync);
  return counter;
}
