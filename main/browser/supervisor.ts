import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FermixError } from '../core/errors.js';
import type { HostResolver } from '../net/resolve-and-pin.js';
import { chromeMissing, systemProbe, type ExecutableProbe, findBrowserExecutable } from './executable.js';
import { startGuardProxy } from './guard-proxy.js';
import { launchProfile, type LaunchRequest } from './launcher.js';
import { createNavigationGuard } from './navigation-guard.js';
import { createSession, type BrowserSession } from './session.js';

/** Reference §2.12 bounds for the managed browser. */
export const MANAGED_PROFILES = ['fermix', 'fermix_visible', 'fermix_headless'] as const;
export type ManagedProfile = (typeof MANAGED_PROFILES)[number];
export const MAX_LIVE_PROFILES = 6;
export const IDLE_TTL_MS = 15 * 60_000;
export const IDLE_SWEEP_MS = 60_000;
const FAILURES_BEFORE_COOLDOWN = 3;
const COOLDOWN_FIRST_MS = 30_000;
const COOLDOWN_MAX_MS = 300_000;

export interface SupervisorOptions {
  profilesDir: string;
  daemonPorts: () => readonly number[];
  probe?: ExecutableProbe;
  /** A browser chosen explicitly (tests; a future config key), instead of the discovered one. */
  executablePath?: string;
  /** Whether a visible window can be shown (Linux: DISPLAY or WAYLAND_DISPLAY). */
  hasDisplay?: () => boolean;
  resolver?: HostResolver;
  /** Injectable so idle closing and cooldowns are tested without waiting. */
  clock?: () => number;
  launch?: (request: LaunchRequest) => ReturnType<typeof launchProfile>;
  launchTimeoutMs?: number;
  maxLive?: number;
  /** 0 disables the timer (tests call sweepIdle themselves). */
  sweepEveryMs?: number;
  onEvent?: (event: string, fields: Record<string, unknown>) => void;
}

interface Slot {
  session?: BrowserSession;
  launching?: Promise<BrowserSession>;
  lastUsed: number;
  failures: number;
  cooldownUntil: number;
  cooldownMs: number;
  /** Set when the browser went away without our stop; the next call relaunches and says so. */
  crashed: boolean;
  lastUrl?: string;
}

function defaultHasDisplay(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

/**
 * The live profiles: launched on first use, relaunched on the call after a crash, cooled down after
 * repeated launch failures, closed when idle, and all closed on shutdown. Profile directories are
 * persistent (`$FERMIX_HOME/browser/profiles/<name>`), so logins survive a restart.
 */
export function createSupervisor(options: SupervisorOptions) {
  const clock = options.clock ?? Date.now;
  const probe = options.probe ?? systemProbe();
  const hasDisplay = options.hasDisplay ?? defaultHasDisplay;
  const launch = options.launch ?? launchProfile;
  const maxLive = options.maxLive ?? MAX_LIVE_PROFILES;
  const slots = new Map<string, Slot>();
  let closed = false;

  const slotOf = (name: string): Slot => {
    let slot = slots.get(name);
    if (!slot) {
      slot = { lastUsed: clock(), failures: 0, cooldownUntil: 0, cooldownMs: 0, crashed: false };
      slots.set(name, slot);
    }
    return slot;
  };

  const headlessFor = (name: string) => name === 'fermix_headless' || !hasDisplay();
  const userDataDir = (name: string) => join(options.profilesDir, name);

  async function evictForRoom(except: string) {
    const live = [...slots].filter(([name, slot]) => slot.session && name !== except);
    if (live.length < maxLive) return;
    live.sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    options.onEvent?.('browser profile evicted', { profile: live[0][0] });
    await stop(live[0][0]);
  }

  async function start(name: string, slot: Slot): Promise<BrowserSession> {
    const now = clock();
    if (slot.cooldownUntil > now) {
      const seconds = Math.ceil((slot.cooldownUntil - now) / 1000);
      throw new FermixError({
        code: 'host_lost',
        message: `The ${name} browser failed to start ${slot.failures} times in a row; it is cooling down for ${seconds} more s.`,
        hint: 'Run browser action=doctor to see why it fails to start, then try again after the cooldown.',
        data: { profile: name, retry_after: seconds, failures: slot.failures },
      });
    }
    const executablePath = options.executablePath ?? findBrowserExecutable(probe);
    if (!executablePath) throw chromeMissing(probe);
    await evictForRoom(name);
    const dir = userDataDir(name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const guard = createNavigationGuard({ daemonPorts: options.daemonPorts, resolver: options.resolver });
    const headless = headlessFor(name);
    const proxy = await startGuardProxy(guard);
    let context;
    try {
      context = await launch({ executablePath, userDataDir: dir, headless, guard, proxyServer: proxy.server, timeoutMs: options.launchTimeoutMs });
    } catch (error) {
      await proxy.close();
      slot.failures += 1;
      if (slot.failures >= FAILURES_BEFORE_COOLDOWN) {
        slot.cooldownMs = slot.cooldownMs === 0 ? COOLDOWN_FIRST_MS : Math.min(slot.cooldownMs * 2, COOLDOWN_MAX_MS);
        slot.cooldownUntil = clock() + slot.cooldownMs;
      }
      options.onEvent?.('browser launch failed', { profile: name, failures: slot.failures, cooldown_ms: slot.cooldownMs });
      throw error;
    }
    slot.failures = 0;
    slot.cooldownMs = 0;
    slot.cooldownUntil = 0;
    const session = createSession({ name, context, guard, headless });
    context.on('close', () => {
      void proxy.close();
      if (slot.session !== session) return;
      slot.session = undefined;
      if (!closed) {
        slot.crashed = true;
        options.onEvent?.('browser exited unexpectedly', { profile: name });
      }
    });
    return session;
  }

  async function stop(name: string): Promise<boolean> {
    const slot = slots.get(name);
    const session = slot?.session ?? (await slot?.launching?.catch(() => undefined));
    if (!slot || !session) return false;
    slot.session = undefined;
    slot.crashed = false;
    await session.context.close().catch(() => undefined);
    return true;
  }

  const timer = (options.sweepEveryMs ?? IDLE_SWEEP_MS) > 0 ? setInterval(() => void sweepIdle(), options.sweepEveryMs ?? IDLE_SWEEP_MS) : undefined;
  timer?.unref();

  async function sweepIdle(): Promise<string[]> {
    const now = clock();
    const idle = [...slots].filter(([, slot]) => slot.session && now - slot.lastUsed >= IDLE_TTL_MS).map(([name]) => name);
    for (const name of idle) {
      options.onEvent?.('browser profile idle, closed', { profile: name });
      await stop(name);
    }
    return idle;
  }

  return {
    /** The live session for a profile, launching (or relaunching after a crash) when needed. */
    async get(name: string): Promise<{ session: BrowserSession; relaunched: boolean; restoredUrl?: string }> {
      if (closed) throw new FermixError({ code: 'cancelled', message: 'The daemon is stopping; the browser is closed.', hint: 'Start the daemon again (`fermix daemon`).' });
      const slot = slotOf(name);
      slot.lastUsed = clock();
      if (slot.session) return { session: slot.session, relaunched: false };
      slot.launching ??= start(name, slot).finally(() => (slot.launching = undefined));
      const session = await slot.launching;
      slot.session = session;
      const relaunched = slot.crashed;
      slot.crashed = false;
      return { session, relaunched };
    },
    /** Remember the active URL between calls, so a relaunch after a crash can say where it was. */
    noteUrl(name: string, url: string) {
      const slot = slots.get(name);
      if (slot) slot.lastUrl = url;
    },
    lastUrl: (name: string) => slots.get(name)?.lastUrl,
    stop,
    sweepIdle,
    headlessFor,
    userDataDir,
    status() {
      return MANAGED_PROFILES.map((name) => {
        const slot = slots.get(name);
        return {
          profile: name,
          running: Boolean(slot?.session),
          headless: headlessFor(name),
          failures: slot?.failures ?? 0,
          cooldown_until: slot && slot.cooldownUntil > clock() ? new Date(slot.cooldownUntil).toISOString() : null,
          dir: userDataDir(name),
        };
      });
    },
    liveCount: () => [...slots.values()].filter((slot) => slot.session).length,
    async shutdown() {
      closed = true;
      if (timer) clearInterval(timer);
      for (const name of [...slots.keys()]) await stop(name);
    },
  };
}

export type Supervisor = ReturnType<typeof createSupervisor>;
