// Settings in Chromium against a real daemon, as sections with their own navigation: each control saves in
// place, its answer shown beside its button (on screen), and nothing stale survives a section change. The
// provider's model is picked from the server's own list; permission and sandbox modes, a folder grant and
// the transcription endpoint are written to config.toml by the daemon; About has a live uptime, the log file
// and a diagnostics text on the clipboard. Screenshots: e2e/artifacts/settings-<section>-<size>-<scheme>.png.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall, tempHome } from '../test/support/daemon-process.js';
import { providerConfig, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

// 390x844 too: the phone layout of every section is looked at (issue 15's new-user trial).
const SIZES = [{ width: 1280, height: 800 }, { width: 800, height: 600 }, { width: 390, height: 844 }] as const;

/** The section at each size, light and dark; back to 1280×800 light afterwards. */
async function shootAll(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme });
      await saveScreenshot(page, `${name}-${size.width}x${size.height}-${colorScheme}`);
    }
  }
  await page.setViewportSize(SIZES[0]);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** True when the element is inside the viewport: "Saved" must be seen where the save happened. */
async function onScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  return Boolean(box && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width);
}

describe('the Settings screen, section by section', () => {
  let server: ModelServer;
  let app: AppSession;
  const config = () => readFileSync(join(app.home, 'config.toml'), 'utf8');
  const sections = () => app.page.getByRole('navigation', { name: 'Settings sections' });
  const open = async (name: string) => {
    await sections().getByRole('button', { name, exact: true }).click();
    await app.page.getByRole('heading', { name, level: 2, exact: true }).waitFor();
  };

  beforeAll(async () => {
    server = await startModelServer({ models: ['m', 'm-large'] });
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: SIZES[0] });
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.daemon.url).origin });
    await app.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await app.page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('has its own navigation: General, Models, Voice, Sandbox, Permissions, About; one section at a time', async () => {
    const { page } = app;
    expect(await sections().getByRole('button').allInnerTexts()).toEqual(['General', 'Models', 'Voice', 'Sandbox', 'Permissions', 'About']);
    expect(await sections().getByRole('button', { name: 'General' }).getAttribute('aria-current')).toBe('page');
    await page.getByText(join(app.home, 'config.toml'), { exact: true }).waitFor();
    // Plugins and MCP are not Settings sections: they keep their place in the main navigation.
    expect(await sections().getByRole('button', { name: /Plugins|MCP/ }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Plugins' }).waitFor();
    await shootAll(page, 'settings-general');
    await open('Sandbox');
    expect(await page.getByRole('heading', { name: 'General', level: 2 }).count()).toBe(0);
    expect(await sections().getByRole('button', { name: 'Sandbox' }).getAttribute('aria-current')).toBe('page');
  });

  it('Models: switches the provider\'s model to one from the server\'s own list; the message does not outlive the section', { timeout: 60_000 }, async () => {
    const { page } = app;
    await open('Models');
    const row = page.getByRole('listitem', { name: 'Provider local' });
    await row.getByText('primary').waitFor();
    // The composer's model picker may have asked for the list already: then the button reloads it.
    await row.getByRole('button', { name: /Choose model…|Reload models/ }).click();
    const select = row.getByLabel('Model for local');
    await expect.poll(() => select.locator('option').allInnerTexts()).toEqual(['m', 'm-large']);
    await select.selectOption('m-large');
    await row.getByRole('button', { name: 'Use m-large' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'local now uses m-large.' });
    await saved.waitFor();
    expect(await onScreen(page, saved)).toBe(true);
    expect(config()).toContain('model = "m-large"');
    await shootAll(page, 'settings-models');
    await open('General');
    await open('Models');
    await row.getByText('m-large').first().waitFor();
    expect(await page.getByText('local now uses m-large.').count()).toBe(0);
  });

  it('Permissions and Sandbox: each answer shows beside its control, on screen', { timeout: 60_000 }, async () => {
    const { page } = app;
    await open('Permissions');
    await page.getByRole('radio', { name: /Read only/ }).check();
    const mode = page.getByRole('status').filter({ hasText: 'Permissions: read only' });
    await mode.waitFor();
    expect(await onScreen(page, mode)).toBe(true);
    expect(config()).toMatch(/\[permissions\][^[]*mode = "read_only"/);
    await shootAll(page, 'settings-permissions');

    await open('Sandbox');
    expect(await page.getByText('Permissions: read only').count()).toBe(0);
    await page.getByRole('radio', { name: /Strict/ }).check();
    await page.getByRole('status').filter({ hasText: 'Sandbox mode set to strict.' }).waitFor();
    expect(config()).toMatch(/\[sandbox\][^[]*mode = "strict"/);

    const folder = join(tempHome('fermix-e2e-grant-'), 'project');
    mkdirSync(folder);
    await page.getByLabel('Grant a folder').fill(folder);
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await page.getByRole('list', { name: 'Granted folders' }).getByText(folder).waitFor();
    const granted = page.getByRole('status').filter({ hasText: folder });
    await granted.waitFor();
    // The grant's answer is under the Grant button, not beside the mode choice above.
    const grantButton = await page.getByRole('button', { name: 'Grant', exact: true }).boundingBox();
    expect((await granted.boundingBox())!.y).toBeGreaterThan(grantButton!.y);
    expect(await page.getByText('Sandbox mode set to strict.').count()).toBe(0);
    expect(config()).toContain(folder);
    await shootAll(page, 'settings-sandbox');
    await page.getByRole('button', { name: `Revoke ${folder}` }).click();
    await page.getByRole('status').filter({ hasText: `Revoked ${folder}` }).waitFor();
    expect(config()).not.toContain(folder);
  });

  it('Voice: endpoint, model, then the key, then Save; "saved" beside the button; stale after leaving', { timeout: 60_000 }, async () => {
    const { page } = app;
    await open('Voice');
    const form = page.getByRole('form', { name: 'Transcription endpoint' });
    // Fields in the order a person fills them, the one Save button after all of them.
    const order = await form.locator('label, button[type=submit]').allInnerTexts();
    expect(order).toEqual(['Endpoint base URL', 'Model', 'API key', 'Save voice settings']);
    await page.getByText('Voice input is not set up', { exact: false }).first().waitFor();
    await page.getByLabel('Endpoint base URL').fill('http://127.0.0.1:8089/v1');
    await page.getByLabel('Model', { exact: true }).fill('whisper-1');
    await page.setViewportSize(SIZES[1]);
    await page.getByRole('button', { name: 'Save voice settings' }).click();
    const saved = form.getByRole('status').filter({ hasText: 'Transcription settings saved' });
    await saved.waitFor();
    expect(await onScreen(page, saved)).toBe(true);
    await page.setViewportSize(SIZES[0]);
    expect(config()).toContain('base_url = "http://127.0.0.1:8089/v1"');
    expect(config()).toContain('model = "whisper-1"');
    await page.getByText('Ready.', { exact: false }).waitFor();
    await shootAll(page, 'settings-voice');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    // Settings opens at the section last used, without the old answer.
    await page.getByRole('heading', { name: 'Voice', level: 2 }).waitFor();
    expect(await page.getByText('Transcription settings saved').count()).toBe(0);
  });

  it('About: versions, home, a live uptime, the log file, copy diagnostics, and Sign out every window', { timeout: 60_000 }, async () => {
    const { page } = app;
    await open('About');
    const status = (await apiCall(app.daemon, 'system.status')).body.result as { version: string; home: string; pid: number; cli: string };
    await page.getByText(status.version, { exact: true }).waitFor();
    await page.getByText(status.home, { exact: true }).waitFor();
    await page.getByText(join(status.home, 'logs', 'fermix.log'), { exact: true }).waitFor();
    // The log command as it runs where the daemon runs (`npx fermix logs` in a checkout).
    await page.getByText(`${status.cli} logs`, { exact: true }).waitFor();
    const uptime = page.getByTestId('uptime');
    const first = await uptime.innerText();
    await expect.poll(() => uptime.innerText(), { timeout: 5_000 }).not.toBe(first);
    await page.getByRole('button', { name: 'Sign out every window' }).waitFor();
    await page.getByRole('button', { name: 'Copy diagnostics' }).click();
    await page.getByRole('status').filter({ hasText: 'Diagnostics copied' }).waitFor();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toContain(`daemon version: ${status.version}`);
    expect(copied).toContain(`home: ${status.home}`);
    expect(copied).toContain(join(status.home, 'logs', 'fermix.log'));
    expect(copied).not.toMatch(/token=[^…]/);
    await shootAll(page, 'settings-about');
    expect(app.errors).toEqual([]);
  });
});
