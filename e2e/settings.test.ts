// Settings in Chromium against a real daemon: the provider's model picked from the list the server itself
// returns, permission mode, sandbox mode and a folder grant, and the transcription endpoint — each written
// to config.toml by the daemon. Screenshot: e2e/artifacts/settings-full.png.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { tempHome } from '../test/support/daemon-process.js';
import { providerConfig, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

describe('the Settings screen', () => {
  let server: ModelServer;
  let app: AppSession;
  const config = () => readFileSync(join(app.home, 'config.toml'), 'utf8');

  beforeAll(async () => {
    server = await startModelServer({ models: ['m', 'm-large'] });
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: { width: 1200, height: 900 } });
    await app.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await app.page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('switches the provider\'s model to one from the server\'s own list', { timeout: 60_000 }, async () => {
    const { page } = app;
    const row = page.getByRole('listitem', { name: 'Provider local' });
    await row.getByText('primary').waitFor();
    await row.getByRole('button', { name: 'Choose model…' }).click();
    const select = row.getByLabel('Model for local');
    await expect.poll(() => select.locator('option').allInnerTexts()).toEqual(['m', 'm-large']);
    await select.selectOption('m-large');
    await row.getByRole('button', { name: 'Use m-large' }).click();
    await page.getByRole('status').filter({ hasText: 'local now uses m-large.' }).waitFor();
    expect(config()).toContain('model = "m-large"');
  });

  it('changes permission and sandbox modes, grants and revokes a folder, and sets the transcription endpoint', { timeout: 60_000 }, async () => {
    const { page } = app;
    await page.getByRole('radio', { name: /Read only/ }).check();
    await page.getByRole('status').filter({ hasText: 'Permission mode set to read_only.' }).waitFor();
    expect(config()).toMatch(/\[permissions\][^[]*mode = "read_only"/);

    await page.getByRole('radio', { name: /Strict/ }).check();
    await page.getByRole('status').filter({ hasText: 'Sandbox mode set to strict.' }).waitFor();
    expect(config()).toMatch(/\[sandbox\][^[]*mode = "strict"/);

    const folder = join(tempHome('fermix-e2e-grant-'), 'project');
    mkdirSync(folder);
    await page.getByLabel('Grant a folder').fill(folder);
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await page.getByRole('list', { name: 'Granted folders' }).getByText(folder).waitFor();
    expect(config()).toContain(folder);

    await page.getByLabel('Endpoint base URL').fill('http://127.0.0.1:8089/v1');
    await page.getByLabel('Model', { exact: true }).fill('whisper-1');
    await page.getByRole('button', { name: 'Save transcription settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Transcription settings saved' }).waitFor();
    expect(config()).toContain('base_url = "http://127.0.0.1:8089/v1"');
    expect(config()).toContain('model = "whisper-1"');

    await page.setViewportSize({ width: 1200, height: 2600 });
    await saveScreenshot(page, 'settings-full');
    await page.setViewportSize({ width: 1200, height: 900 });

    await page.getByRole('button', { name: `Revoke ${folder}` }).click();
    await page.getByRole('status').filter({ hasText: `Revoked ${folder}` }).waitFor();
    expect(config()).not.toContain(folder);
    expect(app.errors).toEqual([]);
  });
});
