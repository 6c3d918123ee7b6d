import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startDaemonProcess, tempHome, type DaemonProcess } from '../../test/support/daemon-process.js';
import { requireRendererBuild } from './build-output.js';
import { launchChromium } from './chromium.js';

export interface AppSession {
  home: string;
  daemon: DaemonProcess;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors; an e2e spec expects none. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * config.toml pointing the daemon at a scripted model server as its one (primary) provider. Model-written
 * titles are off (unless `extra` sets [fermix_core] itself): their extra request would take turns from the
 * specs' scripts, and the specs check first-words titles; main/agent/conversation-title.test.ts tests them.
 */
export function providerConfig(baseUrlOpenAI: string, extra = ''): string {
  const titles = /^\[fermix_core\]$/m.test(extra) ? '' : '[fermix_core]\nmodel_titles = false\n\n';
  return `${titles}[providers.local]\ntype = "openai-compatible"\nbase_url = "${baseUrlOpenAI}"\nmodel = "m"\nprimary = true\n${extra ? `\n${extra}\n` : ''}`;
}

/**
 * A real `fermix daemon` in a fresh home (with the given config.toml, if any), Debian's Chromium, and the
 * window signed in through the printed URL. Close it in afterAll: the daemon is stopped by its pid.
 */
export async function startAppSession(options: { config?: string; colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number }; prepareHome?: (home: string) => void } = {}): Promise<AppSession> {
  requireRendererBuild();
  const home = tempHome('fermix-e2e-');
  if (options.config) writeFileSync(join(home, 'config.toml'), options.config);
  // Before the daemon opens it, e.g. a database seeded with a long conversation.
  options.prepareHome?.(home);
  const daemon = await startDaemonProcess(home);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1200, height: 800 }, colorScheme: options.colorScheme ?? 'light', acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    await page.goto(daemon.url);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    const opened = browser;
    return {
      home,
      daemon,
      browser: opened,
      context,
      page,
      errors,
      async close() {
        await opened.close();
        process.kill(daemon.pid, 'SIGTERM');
        await daemon.exited;
      },
    };
  } catch (error) {
    await browser?.close();
    process.kill(daemon.pid, 'SIGTERM');
    await daemon.exited;
    throw error;
  }
}

/** The message box of the open conversation. */
/**
 * One app session for a whole spec file: started in beforeAll (90 s allowed), closed in afterAll. The
 * returned object is filled in when the session starts, so specs read `app.page` inside their tests.
 */
export function useAppSession(options: Parameters<typeof startAppSession>[0] = {}): AppSession {
  const app = {} as AppSession;
  beforeAll(async () => {
    Object.assign(app, await startAppSession(options));
  }, 90_000);
  afterAll(async () => {
    await app.close?.();
  });
  return app;
}

export function messageBox(page: Page) {
  return page.getByRole('textbox', { name: 'Message' });
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}
