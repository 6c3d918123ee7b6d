import { readdirSync, readFileSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { FermixError } from '../core/errors.js';
import type { NavigationGuard } from './navigation-guard.js';

/**
 * Launching one persistent profile on a system browser. playwright-core is imported on first use: it is
 * a large module and most daemons never open a browser.
 */

// STACK.md: without the background-networking flags the closed network refuses many of Chromium's own
// connections (and a product browser has no business phoning home on its own either).
export const LAUNCH_ARGS = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--no-default-browser-check'];

export const LAUNCH_TIMEOUT_MS = 15_000;

export interface LaunchRequest {
  executablePath: string;
  userDataDir: string;
  headless: boolean;
  guard: NavigationGuard;
  /** The guard proxy every connection goes through (guard-proxy.ts). */
  proxyServer: string;
  timeoutMs?: number;
}

/** Root (CI, containers) cannot use Chromium's setuid sandbox; everyone else keeps it. */
function sandboxArgs(): string[] {
  return typeof process.getuid === 'function' && process.getuid() === 0 ? ['--no-sandbox'] : [];
}

export async function launchProfile(request: LaunchRequest): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(request.userDataDir, {
      executablePath: request.executablePath,
      headless: request.headless,
      // `<-loopback>` removes Chromium's implicit loopback bypass, so 127.0.0.1 (and the daemon's port) is checked too.
      args: [...LAUNCH_ARGS, ...sandboxArgs(), `--proxy-server=${request.proxyServer}`, '--proxy-bypass-list=<-loopback>'],
      timeout: request.timeoutMs ?? LAUNCH_TIMEOUT_MS,
      acceptDownloads: true,
      // Service workers could fetch past context.route (Playwright does not see their requests).
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 800 },
      // The daemon owns shutdown: it closes every profile in order on stop.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    throw new FermixError({
      code: 'host_lost',
      message: `The browser at ${request.executablePath} did not start: ${firstLine(error)}.`,
      hint: 'Run browser action=doctor; if another Chromium holds this profile, close it or call browser action=stop first.',
      data: { executable: request.executablePath, profile_dir: request.userDataDir },
      cause: error,
    });
  }
  await installGuard(context, request.guard);
  return context;
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0].slice(0, 300);
}

/** Every request the page makes (navigations, subresources, fetch/XHR, redirects) passes the guard. */
async function installGuard(context: BrowserContext, guard: NavigationGuard): Promise<void> {
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return route.fallback();
    const reason = await guard.refusal(url);
    if (reason === undefined) return route.fallback();
    guard.record(url, reason);
    return route.abort('blockedbyclient').catch(() => undefined);
  });
  await context.routeWebSocket((url) => guard.refusesWithoutDns(url), (socket) => socket.close({ code: 1008, reason: 'blocked by the Fermix browser policy' }));
}

/** The browser's main process for a profile (Linux /proc), for status and crash tests; undefined elsewhere. */
export function browserPid(userDataDir: string): number | undefined {
  if (process.platform !== 'linux') return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    // Chromium may rewrite its process title into one space-separated string (seen under a D-Bus
    // session with the accessibility bus): split on spaces as well as NULs.
    const args = cmdline.split(/[\0 ]/u);
    // Renderer, GPU and utility children carry --type=…; the browser process does not.
    if (args.includes(`--user-data-dir=${userDataDir}`) && !args.some((arg) => arg.startsWith('--type='))) return Number(entry);
  }
  return undefined;
}
