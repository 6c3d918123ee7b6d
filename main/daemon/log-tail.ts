/**
 * Reading the daemon log for `fermix logs [-f] [-n N]`: the last N lines without loading the file, and
 * following appends across rotation like `tail -F`.
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { StringDecoder } from 'node:string_decoder';

/** `fermix logs` prints this many lines unless `-n` says otherwise (as Fermix does). */
export const DEFAULT_TAIL_LINES = 100;

const NEWLINE = 0x0a;

/**
 * The last `n` lines of `file`, oldest first, read backwards in blocks so a 10 MB log (or a huge one left
 * by an old build) costs only the blocks that hold those lines. A missing file has no lines: the daemon
 * may simply not have logged yet.
 */
export async function readLastLines(file: string, n: number, options: { blockSize?: number } = {}): Promise<string[]> {
  if (n <= 0) return [];
  const blockSize = options.blockSize ?? 64 * 1024;
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const blocks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    let skipTrailing = true;
    // The last n lines are whole once n newlines (besides the final one) are in hand, or the start is.
    while (position > 0 && newlines < n) {
      const length = Math.min(blockSize, position);
      position -= length;
      const block = Buffer.alloc(length);
      await readFully(handle, block, position);
      for (let index = length - 1; index >= 0; index--) {
        if (block[index] !== NEWLINE) continue;
        // The newline that ends the file terminates the last line; it does not start a new one.
        if (skipTrailing && position + index === size - 1) continue;
        newlines++;
      }
      skipTrailing = false;
      blocks.unshift(block);
    }
    // Decoding the joined bytes once keeps multi-byte characters that straddle block edges intact; a
    // character cut at the first block's start can only be in the partial first line, which is dropped.
    const lines = Buffer.concat(blocks).toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    if (position > 0) lines.shift();
    return lines.slice(-n).map(stripCarriageReturn);
  } finally {
    await handle.close();
  }
}

async function readFully(handle: FileHandle, buffer: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, position + offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
}

function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

export interface FollowOptions {
  /** 'end' (default) skips what is already there, as after `readLastLines`; 'start' reads it all. */
  from?: 'start' | 'end';
  pollMs?: number;
}

interface Followed {
  handle: FileHandle;
  ino: bigint;
  dev: bigint;
  position: number;
  decoder: StringDecoder;
  partial: string;
}

/**
 * Calls `onLine` for every line appended to `file` until `signal` aborts; resolves then. Survives rotation
 * (rename and recreate) and truncation, and waits for a file that does not exist yet.
 *
 * It polls instead of using fs.watch: inotify watches an inode, so the watch goes silent when the log is
 * renamed away, and fs.watch's rename reporting differs per platform. A 250 ms poll of one stat is cheap.
 */
export async function followFile(
  file: string,
  onLine: (line: string) => void,
  signal: AbortSignal,
  options: FollowOptions = {},
): Promise<void> {
  const pollMs = options.pollMs ?? 250;
  let current: Followed | undefined;
  let first = true;
  try {
    while (!signal.aborted) {
      if (current === undefined) {
        // A file that appears after we started is new: read it from its start.
        current = await openFollowed(file, first && options.from !== 'start' ? 'end' : 'start');
      }
      first = false;
      if (current !== undefined) {
        await drain(current, onLine);
        const now = await statOrUndefined(file);
        if (now !== undefined && (now.ino !== current.ino || now.dev !== current.dev)) {
          // Rotated: the writer has closed the old file, so one last drain gets its final lines.
          await drain(current, onLine);
          if (current.partial !== '') onLine(stripCarriageReturn(current.partial));
          await current.handle.close();
          current = await openFollowed(file, 'start');
          if (current !== undefined) await drain(current, onLine);
        } else if (now !== undefined && now.size < BigInt(current.position)) {
          // Truncated in place (copytruncate): start over at the beginning.
          current.position = 0;
          current.partial = '';
          current.decoder = new StringDecoder('utf8');
          await drain(current, onLine);
        }
      }
      await sleep(pollMs, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    await current?.handle.close();
  }
}

async function openFollowed(file: string, from: 'start' | 'end'): Promise<Followed | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const info = await handle.stat({ bigint: true });
  return {
    handle,
    ino: info.ino,
    dev: info.dev,
    position: from === 'end' ? Number(info.size) : 0,
    decoder: new StringDecoder('utf8'),
    partial: '',
  };
}

async function drain(followed: Followed, onLine: (line: string) => void): Promise<void> {
  const buffer = Buffer.alloc(64 * 1024);
  while (true) {
    const { bytesRead } = await followed.handle.read(buffer, 0, buffer.length, followed.position);
    if (bytesRead === 0) return;
    followed.position += bytesRead;
    const text = followed.partial + followed.decoder.write(buffer.subarray(0, bytesRead));
    const lines = text.split('\n');
    // The last piece has no newline yet: the writer may be mid-line, so hold it until the rest arrives.
    followed.partial = lines.pop() ?? '';
    for (const line of lines) onLine(stripCarriageReturn(line));
  }
}

async function statOrUndefined(file: string): Promise<{ ino: bigint; dev: bigint; size: bigint } | undefined> {
  try {
    return await stat(file, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
