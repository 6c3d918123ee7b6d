/**
 * How long the person has been idle, per OS, behind one interface.
 * - Linux (X11): `xprintidle` (Debian package), which reads the MIT-SCREEN-SAVER extension in ms.
 * - macOS: `HIDIdleTime` (ns) from `ioreg -c IOHIDSystem`, inside Electron too, because Electron's
 *   `powerMonitor.getSystemIdleTime()` has whole seconds only.
 * - Windows: powerMonitor's seconds (the shell hands them in; seconds are acceptable there).
 * Any of them may be unavailable; courtesy then proceeds and says so (a courtesy, not a safety boundary).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface IdleProbe {
  /** What is read, for status and doctor ("xprintidle (X11 screensaver extension)"). */
  readonly source: string;
  /** The finest step the source can tell apart: 1 ms for X11 and macOS, 1000 ms for powerMonitor. */
  readonly resolutionMs: number;
  /** Milliseconds since the last input from anyone (the person or us); undefined when unreadable. */
  read(): Promise<number | undefined>;
}

export interface UnavailableIdle {
  readonly source: 'none';
  readonly reason: string;
}

export function createXprintidleProbe(env: NodeJS.ProcessEnv = process.env): IdleProbe {
  return {
    source: 'xprintidle (X11 screensaver extension)',
    resolutionMs: 1,
    async read() {
      try {
        const { stdout } = await run('xprintidle', [], { timeout: 2000, env });
        const value = Number.parseInt(stdout.trim(), 10);
        return Number.isFinite(value) ? value : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** `"HIDIdleTime" = 1234567890` (nanoseconds) from `ioreg -c IOHIDSystem -d 4` → ms. */
export function parseHidIdleTime(ioregOutput: string): number | undefined {
  const match = /"HIDIdleTime"\s*=\s*(\d+)/.exec(ioregOutput);
  if (!match) return undefined;
  return Math.floor(Number(BigInt(match[1]) / 1_000_000n));
}

export function createIoregProbe(): IdleProbe {
  return {
    source: 'ioreg HIDIdleTime',
    resolutionMs: 1,
    async read() {
      try {
        const { stdout } = await run('/usr/sbin/ioreg', ['-c', 'IOHIDSystem', '-d', '4'], { timeout: 2000, maxBuffer: 4 * 1024 * 1024 });
        return parseHidIdleTime(stdout);
      } catch {
        return undefined;
      }
    },
  };
}

/** Windows (or any host with only a seconds counter): Electron's powerMonitor.getSystemIdleTime. */
export function createSecondsProbe(seconds: () => number, source = 'powerMonitor.getSystemIdleTime (whole seconds)'): IdleProbe {
  return {
    source,
    resolutionMs: 1000,
    async read() {
      const value = seconds();
      return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
    },
  };
}

export interface IdleProbeChoice {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Electron's powerMonitor.getSystemIdleTime, when the daemon runs inside the app. */
  systemIdleSeconds?: () => number;
}

/** Picks the probe for this OS and checks it answers once; an unavailable one says why. */
export async function chooseIdleProbe(choice: IdleProbeChoice = {}): Promise<IdleProbe | UnavailableIdle> {
  const platform = choice.platform ?? process.platform;
  let probe: IdleProbe | undefined;
  let missing = '';
  if (platform === 'linux') {
    probe = createXprintidleProbe(choice.env);
    missing = 'xprintidle is not installed or cannot read the X server (`sudo apt-get install xprintidle`)';
  } else if (platform === 'darwin') {
    probe = createIoregProbe();
    missing = '`ioreg` did not report HIDIdleTime';
  } else if (choice.systemIdleSeconds) {
    probe = createSecondsProbe(choice.systemIdleSeconds);
    missing = 'powerMonitor did not answer';
  } else {
    return { source: 'none', reason: 'the headless daemon on this OS has no idle counter (the desktop app provides one)' };
  }
  return (await probe.read()) === undefined ? { source: 'none', reason: missing } : probe;
}

/** Extra slack when telling our own input from the person's: the server stamps events a little later. */
const OWN_INPUT_SLACK_MS = 150;

/**
 * The person's idle time, given the system's and when we last sent input. If the newest input the
 * system saw is ours, the person has been idle at least since then — and before that our previous
 * courtesy check already looked — so it counts as idle (Infinity).
 */
export function personIdleMs(systemIdleMs: number, lastOwnInputAt: number, now: number, resolutionMs: number): number {
  if (lastOwnInputAt <= 0) return systemIdleMs;
  const sinceOwn = now - lastOwnInputAt;
  return systemIdleMs + resolutionMs + OWN_INPUT_SLACK_MS >= sinceOwn ? Number.POSITIVE_INFINITY : systemIdleMs;
}

export interface CourtesyOptions {
  probe: IdleProbe | UnavailableIdle;
  lastOwnInputAt: () => number;
  /** The person counts as away after this long (courtesy_idle_ms, 1000). */
  idleMs?: number;
  /** How long to wait for such a gap before refusing (3000). */
  maxWaitMs?: number;
  pollMs?: number;
  /** Stops the wait early (pause, abort): checked each poll. */
  interrupted?: () => boolean;
  now?: () => number;
}

export type CourtesyOutcome = { outcome: 'idle' | 'unknown' | 'active' | 'interrupted'; waitedMs: number; personIdleMs?: number };

/** Waits up to maxWaitMs for the person to leave a gap of idleMs; never blocks when idle is unreadable. */
export async function awaitPersonIdle(options: CourtesyOptions): Promise<CourtesyOutcome> {
  const now = options.now ?? Date.now;
  const idleMs = options.idleMs ?? 1000;
  const maxWaitMs = options.maxWaitMs ?? 3000;
  const pollMs = options.pollMs ?? 100;
  const started = now();
  const probe = options.probe;
  if (probe.source === 'none') return { outcome: 'unknown', waitedMs: 0 };
  for (;;) {
    const system = await (probe as IdleProbe).read();
    const waitedMs = now() - started;
    if (system === undefined) return { outcome: 'unknown', waitedMs };
    const person = personIdleMs(system, options.lastOwnInputAt(), now(), (probe as IdleProbe).resolutionMs);
    if (person >= idleMs) return { outcome: 'idle', waitedMs, personIdleMs: person };
    if (options.interrupted?.()) return { outcome: 'interrupted', waitedMs };
    if (waitedMs >= maxWaitMs) return { outcome: 'active', waitedMs, personIdleMs: person };
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(1, idleMs - person))));
  }
}
