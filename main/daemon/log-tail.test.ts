import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { followFile, readLastLines } from './log-tail.js';
import { createLogger } from './logger.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fermix-log-tail-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const numbered = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `line ${from + i}`);

async function waitFor(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('readLastLines', () => {
  it('returns the last n lines, oldest first, across block edges', async () => {
    const file = join(root, 'fermix.log');
    writeFileSync(file, numbered(0, 1000).join('\n') + '\n');
    expect(await readLastLines(file, 3)).toEqual(['line 997', 'line 998', 'line 999']);
    for (const blockSize of [1, 7, 64, 4096]) {
      expect(await readLastLines(file, 100, { blockSize })).toEqual(numbered(900, 1000));
    }
    expect(await readLastLines(file, 5000, { blockSize: 13 })).toEqual(numbered(0, 1000));
    expect(await readLastLines(file, 0)).toEqual([]);
  });

  it('handles a missing trailing newline, an empty file, a missing file, CRLF and blank lines', async () => {
    const file = join(root, 'fermix.log');
    writeFileSync(file, 'a\n\nb\r\nc');
    expect(await readLastLines(file, 3, { blockSize: 2 })).toEqual(['', 'b', 'c']);
    expect(await readLastLines(file, 10)).toEqual(['a', '', 'b', 'c']);
    writeFileSync(file, '');
    expect(await readLastLines(file, 10)).toEqual([]);
    expect(await readLastLines(join(root, 'absent.log'), 10)).toEqual([]);
  });

  it('keeps multi-byte characters whole when they straddle block edges', async () => {
    const file = join(root, 'fermix.log');
    const lines = ['héllo wörld', '日本語のログ', 'emoji 🎉🎉', 'done'];
    writeFileSync(file, lines.join('\n') + '\n');
    for (let blockSize = 1; blockSize <= 9; blockSize++) {
      expect(await readLastLines(file, 3, { blockSize })).toEqual(lines.slice(1));
    }
  });

  it('reads only the end of a huge file', async () => {
    const file = join(root, 'huge.log');
    writeFileSync(file, '');
    // A sparse 3 GiB file: reading it whole would take seconds and exceed Buffer's 2 GiB cap.
    truncateSync(file, 3 * 1024 ** 3);
    appendFileSync(file, '\nsecond to last\nlast\n');
    const started = Date.now();
    expect(await readLastLines(file, 2)).toEqual(['second to last', 'last']);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('followFile', () => {
  it('reports appended lines (not earlier ones by default), holds partial lines, and stops on abort', async () => {
    const file = join(root, 'fermix.log');
    writeFileSync(file, 'before\n');
    const seen: string[] = [];
    const controller = new AbortController();
    const following = followFile(file, (line) => seen.push(line), controller.signal, { pollMs: 20 });
    // Let the follower open the file at its current end before anything is appended.
    await new Promise((resolve) => setTimeout(resolve, 100));
    appendFileSync(file, 'one\ntw');
    await waitFor(() => seen.length === 1, 'the first line');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(seen).toEqual(['one']);
    appendFileSync(file, 'o\nthree\n');
    await waitFor(() => seen.length === 3, 'the completed line');
    expect(seen).toEqual(['one', 'two', 'three']);
    controller.abort();
    await following;
  });

  it('waits for a file that does not exist yet and reads it from its start', async () => {
    const file = join(root, 'later.log');
    const seen: string[] = [];
    const controller = new AbortController();
    const following = followFile(file, (line) => seen.push(line), controller.signal, { pollMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    writeFileSync(file, 'first\nsecond\n');
    await waitFor(() => seen.length === 2, 'both lines');
    expect(seen).toEqual(['first', 'second']);
    controller.abort();
    await following;
  });

  it('survives rotation by the real logger without losing or repeating lines', async () => {
    const file = join(root, 'logs', 'fermix.log');
    const logger = createLogger({ file, maxBytes: 400, maxFiles: 5 });
    logger.info('start', { index: -1 });
    const seen: number[] = [];
    const controller = new AbortController();
    const following = followFile(file, (line) => seen.push(JSON.parse(line).index as number), controller.signal, { from: 'start', pollMs: 20 });
    let next = 0;
    // Lines are ~70 bytes, so batches of 4 cross rotations between two polls: the end of the old file and
    // the start of the new one must both arrive, in order.
    for (let batch = 0; batch < 6; batch++) {
      for (let i = 0; i < 4; i++) logger.info(`line ${next}`, { index: next++ });
      await waitFor(() => seen.length === next + 1, `batch ${batch}`);
    }
    logger.close();
    controller.abort();
    await following;
    expect(seen).toEqual([-1, ...Array.from({ length: next }, (_, i) => i)]);
    expect(existsSync(`${file}.3`), 'the logger rotated at least three times').toBe(true);
  });

  it('follows a file renamed away and recreated later, and one truncated in place', async () => {
    const file = join(root, 'fermix.log');
    writeFileSync(file, '');
    const seen: string[] = [];
    const controller = new AbortController();
    const following = followFile(file, (line) => seen.push(line), controller.signal, { pollMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    appendFileSync(file, 'old 1\nold 2 without newline');
    renameSync(file, `${file}.1`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    writeFileSync(file, 'new 1\n');
    await waitFor(() => seen.length === 3, 'lines from both files');
    expect(seen).toEqual(['old 1', 'old 2 without newline', 'new 1']);
    writeFileSync(file, 'x\n');
    await waitFor(() => seen.length === 4, 'the line after truncation');
    expect(seen[3]).toBe('x');
    controller.abort();
    await following;
  });
});
