// Controls in Chromium against a real daemon: computer use's pause state is always visible (status bar and
// the conversation's controls), /pause and /resume and the Pause button switch the daemon's one switch, a
// daemon with computer use off says "not enabled" honestly, and the toolbar's Stop ends a running turn.
// Screenshots: e2e/artifacts/controls-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall } from '../test/support/daemon-process.js';
import { providerConfig, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server?.close());

describe('computer use enabled', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI, '[fermix_core.computer_use]\nenabled = true') });
  });
  afterAll(() => app?.close());

  it('pauses and resumes from the toolbar and with /pause and /resume, and shows the state everywhere', { timeout: 60_000 }, async () => {
    const { page } = app;
    const toolbar = page.getByRole('toolbar', { name: 'Controls' });
    const statusBar = page.locator('.status-computer');
    await toolbar.getByText('active').waitFor({ timeout: 10_000 });
    await statusBar.filter({ hasText: 'Computer use: active' }).waitFor();

    await toolbar.getByRole('button', { name: 'Pause computer use' }).click();
    await toolbar.getByText('paused').waitFor();
    await statusBar.filter({ hasText: 'Computer use: paused' }).waitFor();
    expect((await apiCall(app.daemon, 'computer.status')).body.result).toMatchObject({ enabled: true, paused: true });
    await saveScreenshot(page, 'controls-paused');

    await sendMessage(page, '/resume');
    await page.getByRole('status').filter({ hasText: 'Computer use resumed.' }).waitFor();
    await statusBar.filter({ hasText: 'Computer use: active' }).waitFor();
    expect((await apiCall(app.daemon, 'computer.status')).body.result.paused).toBe(false);

    await sendMessage(page, '/pause');
    await page.getByRole('status').filter({ hasText: /Computer use paused: the agent will not move the pointer or type until you \/resume/ }).waitFor();
    await toolbar.getByRole('button', { name: 'Resume computer use' }).waitFor();
    expect((await apiCall(app.daemon, 'computer.status')).body.result.paused).toBe(true);
    await saveScreenshot(page, 'controls-commands');
    expect(app.errors).toEqual([]);
  });

  it('stops a running turn from the toolbar', { timeout: 60_000 }, async () => {
    const { page } = app;
    server.setScript([{ text: Array.from({ length: 40 }, (_, index) => `part${index}`).join(' '), chunks: 40, delayMs: 250 }]);
    await sendMessage(page, 'a long answer please');
    const toolbar = page.getByRole('toolbar', { name: 'Controls' });
    await toolbar.getByText('Answering…').waitFor({ timeout: 10_000 });
    await page.locator('article.message-assistant[aria-busy="true"]').getByText(/part1/).waitFor({ timeout: 10_000 });
    await toolbar.getByRole('button', { name: 'Stop the running turn' }).click();
    await page.getByLabel('Turn usage').getByText('Stopped').waitFor({ timeout: 10_000 });
    await toolbar.getByText('Idle').waitFor();
    await saveScreenshot(page, 'controls-stopped');
    expect(app.errors).toEqual([]);
  });
});

describe('computer use not enabled', () => {
  let app: AppSession;
  beforeAll(async () => {
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI) });
  });
  afterAll(() => app?.close());

  it('says "not enabled" instead of offering a pause, and /pause says why', { timeout: 60_000 }, async () => {
    const { page } = app;
    const toolbar = page.getByRole('toolbar', { name: 'Controls' });
    await toolbar.getByText('not enabled').waitFor({ timeout: 10_000 });
    await page.locator('.status-computer').filter({ hasText: 'Computer use: not enabled' }).waitFor();
    expect(await toolbar.getByRole('button', { name: 'Pause computer use' }).count()).toBe(0);
    await sendMessage(page, '/pause');
    await page.getByRole('status').filter({ hasText: 'Computer use is not enabled ([fermix_core.computer_use] enabled = false)' }).waitFor();
    await sendMessage(page, '/help');
    await page.getByRole('status').filter({ hasText: '/confirm TOKEN' }).waitFor();
    await sendMessage(page, '/frobnicate');
    await page.getByRole('alert').filter({ hasText: 'There is no /frobnicate command.' }).getByText(/start with \/\/ to send/).waitFor();
    await saveScreenshot(page, 'controls-not-enabled');
    expect(app.errors).toEqual([]);
  });
});
