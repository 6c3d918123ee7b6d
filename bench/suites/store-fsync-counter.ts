/**
 * A measuring instrument for the store benchmarks (never product code): every fsync and fdatasync this
 * process makes, from any thread, and how long each one blocked, counted by the kernel's view of them.
 * SQLite is native (decision 0032), so its syncs no longer pass through Node's fs module where a wrapper
 * could see them: strace attaches to this process (`-p`, all its threads, `-f` for new ones) and writes one
 * line per sync with its duration (`-T`).
 *
 * strace writes its log when it likes, so a window opens and closes with markers: fdatasyncs of /dev/null,
 * which fail at once (EINVAL) and which nothing else makes. A window's count is read once its closing
 * marker is in the log.
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
  /** Starts a window (attaches strace). */
  reset(): Promise<void>;
  /** Ends the window (detaches strace) and returns its syncs, markers not counted. */
  read(): Promise<FsyncCount>;
  stop(): Promise<void>;
}

const MARKER_TIMEOUT_MS = 10_000;

export async function countFsyncs(): Promise<FsyncCounter> {
  if (spawnSync('strace', ['-V']).status !== 0) {
    throw new Error('the store benchmarks count fsyncs with strace, which is not installed: run `apt-get install strace` (or `npm test` once, which installs it)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'fermix-bench-strace-'));
  // Two markers: one that opens a window (repeated until strace, just attached, logs it) and one that closes it.
  const [opening, closing] = [openSync('/dev/null', 'r'), openSync('/dev/null', 'r')];
  let window: { tracer: ChildProcess; log: string; stderr: string } | undefined;
  let windows = 0;

  const mark = (fd: number) => {
    try {
      fdatasyncSync(fd);
    } catch {
      // EINVAL: /dev/null cannot be synced; the call itself is the marker
    }
  };
  /** Waits until the window's log holds `marker`'s sync (making it again now and then); returns the log's syncs. */
  const until = async (marker: number, repeat: boolean): Promise<SyncEvent[]> => {
    const current = window as NonNullable<typeof window>;
    mark(marker);
    const deadline = Date.now() + MARKER_TIMEOUT_MS;
    for (let attempt = 1; ; attempt += 1) {
      if (repeat && attempt % 20 === 0) mark(marker);
      let text = '';
      try {
        text = readFileSync(current.log, 'utf8');
      } catch {
        // not written yet
      }
      const events = parseSyncs(text);
      if (events.some((event) => event.fd === marker)) return events;
      if (current.tracer.exitCode !== null || Date.now() > deadline) {
        throw new Error(`strace did not log the marker sync (${current.stderr.trim() || 'no message'}); is ptrace allowed here?`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const detach = async () => {
    const current = window;
    window = undefined;
    if (!current) return;
    current.tracer.kill('SIGINT');
    await new Promise((resolve) => (current.tracer.exitCode !== null ? resolve(undefined) : current.tracer.once('exit', resolve)));
  };

  return {
    // strace stops this process at every system call while attached (ptrace; seccomp filtering needs strace to
    // start the process), which slows it several-fold: it is attached only for a window, never while timing.
    async reset() {
      await detach();
      const log = join(dir, `window-${(windows += 1)}.log`);
      const tracer = spawn('strace', ['-f', '-qq', '-T', '-e', 'trace=fsync,fdatasync', '-o', log, '-p', String(process.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
      window = { tracer, log, stderr: '' };
      const current = window;
      tracer.stderr?.on('data', (chunk) => (current.stderr += chunk));
      await until(opening, true);
    },
    async read() {
      if (!window) throw new Error('fsync counter: read() without reset()');
      const events = await until(closing, false);
      const start = events.findIndex((event) => event.fd === opening);
      const end = events.findIndex((event) => event.fd === closing);
      await detach();
      const syncs = events.slice(start + 1, end).filter((event) => event.fd !== opening);
      return { count: syncs.length, blockedMs: syncs.reduce((sum, event) => sum + event.ms, 0) };
    },
    async stop() {
      await detach();
      closeSync(opening);
      closeSync(closing);
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
