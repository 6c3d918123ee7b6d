/**
 * A measuring instrument for the store benchmarks (never product code): every fsync and fdatasync this
 * process makes, from any thread, and how long each one blocked, counted by the kernel's view of them.
 * SQLite is native (decision 0032), so its syncs no longer pass through Node's fs module where a wrapper
 * could see them: strace attaches to this process (`-p`, all its threads, `-f` for new ones) and writes one
 * line per sync with its duration (`-T`).
 *
 * strace writes its log when it likes, so each window ends with a marker: an fdatasync of /dev/null, which
 * fails at once (EINVAL) and which nothing else makes. A window's count is read once the marker is in the log.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FsyncCount {
  count: number;
  blockedMs: number;
}

export interface FsyncCounter {
  /** Starts a new window. */
  reset(): Promise<void>;
  /** The syncs since the last reset (markers not counted); reading does not start a new window. */
  read(): Promise<FsyncCount>;
  stop(): Promise<void>;
}

const MARKER_TIMEOUT_MS = 10_000;

export async function countFsyncs(): Promise<FsyncCounter> {
  if (spawnSync('strace', ['-V']).status !== 0) {
    throw new Error('the store benchmarks count fsyncs with strace, which is not installed: run `apt-get install strace` (or `npm test` once, which installs it)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'fermix-bench-strace-'));
  const log = join(dir, 'syncs.log');
  // Markers rotate over a few descriptors, so a late repeat of one window's marker is never taken for the next's.
  const markers = Array.from({ length: 4 }, () => openSync('/dev/null', 'r'));
  let nextMarker = 0;
  const tracer: ChildProcess = spawn('strace', ['-f', '-qq', '-T', '-e', 'trace=fsync,fdatasync', '-o', log, '-p', String(process.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  tracer.stderr?.on('data', (chunk) => (stderr += chunk));
  let windowStart = 0;
  let seen = 0;

  /** Makes a marker sync and waits until strace has logged it; returns the syncs logged up to it. */
  const sync = async (): Promise<SyncEvent[]> => {
    const marker = markers[nextMarker++ % markers.length];
    const mark = () => {
      try {
        fdatasyncSync(marker);
      } catch {
        // EINVAL: /dev/null cannot be synced; the call itself is the marker
      }
    };
    mark();
    const deadline = Date.now() + MARKER_TIMEOUT_MS;
    for (let attempt = 1; ; attempt += 1) {
      // Until strace has attached, a marker goes unseen: make another now and then (extra ones are not counted).
      if (attempt % 20 === 0) mark();
      let text = '';
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        // not written yet
      }
      const events = parseSyncs(text);
      const end = events.findIndex((event, index) => index >= seen && event.fd === marker);
      if (end >= 0) {
        seen = end + 1;
        return events.slice(0, end + 1);
      }
      if (tracer.exitCode !== null || Date.now() > deadline) throw new Error(`strace did not log the marker sync (${stderr.trim() || 'no message'}); is ptrace allowed here?`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  // Attached once its first marker shows up.
  windowStart = (await sync()).length;
  return {
    async reset() {
      windowStart = (await sync()).length;
    },
    async read() {
      const syncs = (await sync()).slice(windowStart).filter((event) => !markers.includes(event.fd));
      return { count: syncs.length, blockedMs: syncs.reduce((sum, event) => sum + event.ms, 0) };
    },
    async stop() {
      tracer.kill('SIGINT');
      await new Promise((resolve) => (tracer.exitCode !== null ? resolve(undefined) : tracer.once('exit', resolve)));
      for (const marker of markers) closeSync(marker);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface SyncEvent {
  fd: number;
  ms: number;
}

/**
 * strace's lines, in order: `PID fsync(FD) = 0 <SECONDS>`, or, when another thread's call came in between,
 * `PID fsync(FD <unfinished ...>` and later `PID <... fsync resumed>) = 0 <SECONDS>`.
 */
export function parseSyncs(text: string): SyncEvent[] {
  const events: SyncEvent[] = [];
  const unfinished = new Map<string, number>();
  for (const line of text.split('\n')) {
    const whole = /^(\d+)\s+f(?:data)?sync\((\d+)\)\s+=.*<(\d+\.\d+)>\s*$/.exec(line);
    if (whole) {
      events.push({ fd: Number(whole[2]), ms: Number(whole[3]) * 1000 });
      continue;
    }
    const started = /^(\d+)\s+f(?:data)?sync\((\d+)\s+<unfinished \.\.\.>/.exec(line);
    if (started) {
      unfinished.set(started[1], Number(started[2]));
      continue;
    }
    const resumed = /^(\d+)\s+<\.\.\. f(?:data)?sync resumed>.*<(\d+\.\d+)>\s*$/.exec(line);
    if (resumed && unfinished.has(resumed[1])) {
      events.push({ fd: unfinished.get(resumed[1]) as number, ms: Number(resumed[2]) * 1000 });
      unfinished.delete(resumed[1]);
    }
  }
  return events;
}
