// The built window (out/renderer) in Debian's Chromium against a real headless daemon: sign-in by the printed
// URL, the cookie session, live events, the refusal without a token, and both themes. Screenshots land in
// e2e/artifacts/ for a person to look at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FERMIX_VERSION } from '../main/core/version.js';
import { apiCall, startDaemonProcess, tempHome, type DaemonProcess } from '../test/support/daemon-process.js';
import { requireRendererBuild } from './support/build-output.js';
import { launchChromium, saveScreenshot } from './support/chromium.js';

const NOT_AUTHORIZED = 'Not authorized — open the URL printed by the daemon';

describe('the window in Chromium, served by `fermix daemon`', () => {
  let daemon: DaemonProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireRendererBuild();
    daemon = await startDaemonProcess(tempHome('fermix-e2e-'));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1100, height: 700 }, colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // CSP violations and script failures show up here; an authorized window should have none.
      if (message.type() === 'error') pageErrors.push(`console: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (daemon) {
      process.kill(daemon.pid, 'SIGTERM');
      await daemon.exited;
    }
  });

  it('signs in with the printed URL, drops the token from the address bar, and shows the daemon version', async () => {
    await page.goto(daemon.url);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByText(`Fermix daemon ${FERMIX_VERSION}`).waitFor();
    expect(page.url()).toBe(daemon.base);
    expect(await page.evaluate('location.hash')).toBe('');
    const cookies = await context.cookies(daemon.base);
    expect(cookies.find((cookie) => cookie.name === 'fermix_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    // The token must not be readable by page code either: only the HttpOnly cookie carries the session.
    expect(await page.evaluate('document.cookie')).toBe('');
    await saveScreenshot(page, 'connected');
    expect(pageErrors).toEqual([]);
  });

  it('opens a new conversation with the button, stored only once it has a message', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    const list = page.getByRole('list', { name: 'Conversations' });
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(0);
    const stored = await apiCall(daemon, 'conversations.list');
    expect(stored.body.result.conversations).toHaveLength(0);
    await saveScreenshot(page, 'conversation-created');
    expect(pageErrors).toEqual([]);
  });

  it('shows a conversation created elsewhere at once, through the event socket', async () => {
    const created = await apiCall(daemon, 'conversations.create', { title: 'Started from the CLI' });
    expect(created.status).toBe(200);
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('button', { name: /Started from the CLI/ }).waitFor({ timeout: 5000 });
    expect(await list.getByRole('listitem').count()).toBe(1);
    await saveScreenshot(page, 'live-event');
  });

  it('stays signed in across a reload, by its session cookie', async () => {
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    expect(page.url()).toBe(daemon.base);
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('button', { name: /Started from the CLI/ }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    await saveScreenshot(page, 'after-reload');
    expect(pageErrors).toEqual([]);
  });

  it('navigates to Plugins, Settings and Audit and back to Chat', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Plugins' }).click();
    // The catalog and the MCP servers, as two tabs (renderer/src/features/plugins/plugins-screen.tsx).
    await page.getByRole('tab', { name: 'Catalog' }).waitFor();
    await page.getByRole('tab', { name: 'MCP servers' }).waitFor();
    expect(await nav.getByRole('button', { name: 'Plugins' }).getAttribute('aria-current')).toBe('page');
    await saveScreenshot(page, 'plugins');
    await nav.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const status = await apiCall(daemon, 'system.status');
    await page.getByText(`pid ${status.body.result.pid}`, { exact: false }).waitFor();
    await page.getByText(status.body.result.home, { exact: true }).waitFor();
    await saveScreenshot(page, 'settings');
    await nav.getByRole('button', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    await nav.getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('list', { name: 'Conversations' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('without a token, says it is not authorized and where the right URL comes from', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    try {
      const stranger = await fresh.newPage();
      await stranger.goto(daemon.base);
      await stranger.getByRole('heading', { name: NOT_AUTHORIZED }).waitFor();
      await stranger.getByRole('status').filter({ hasText: 'Not authorized' }).waitFor();
      // The daemon's own message and hint are shown, not a generic failure.
      await stranger.getByRole('alert').getByText('This request carries no valid session or token.').waitFor();
      await stranger.getByRole('alert').getByText(/fermix status/).waitFor();
      expect(await stranger.getByRole('list', { name: 'Conversations' }).count()).toBe(0);
      await saveScreenshot(stranger, 'unauthorized');
    } finally {
      await fresh.close();
    }
  });

  it('drops a wrong token from the address bar and refuses it', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    try {
      const guesser = await fresh.newPage();
      await guesser.goto(`${daemon.base}#token=not-the-token`);
      await guesser.getByRole('heading', { name: NOT_AUTHORIZED }).waitFor();
      expect(guesser.url()).toBe(daemon.base);
      // The refusal of the token itself is shown, not just "no session".
      await guesser.getByRole('alert').getByText('That token is not valid for this daemon run.').waitFor();
      expect(await fresh.cookies(daemon.base)).toEqual([]);
      await saveScreenshot(guesser, 'wrong-token');
    } finally {
      await fresh.close();
    }
  });

  it('follows a dark system theme', async () => {
    const dark = await browser.newContext({ viewport: { width: 1100, height: 700 }, colorScheme: 'dark' });
    try {
      const night = await dark.newPage();
      await night.goto(daemon.url);
      await night.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
      await night.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first().waitFor();
      const background = await night.evaluate('getComputedStyle(document.documentElement).backgroundColor');
      expect(background).toBe('rgb(21, 21, 29)');
      await saveScreenshot(night, 'dark');
    } finally {
      await dark.close();
    }
  });
});
