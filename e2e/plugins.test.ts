// The Plugins screen in Chromium against an in-process daemon started the way only the test composition
// root may: `startDaemon({ pluginNet })` injects the loopback Net.Guard exception for the local HTTPS Slack
// fake. Install with progress, enable, a rejected and an accepted API key (the badge turns Ready and the
// tools reach `fermix capabilities`, the real CLI), search and filter, and a tampered install refused.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { SLACK_GOOD_TOKEN, startSlackFake, type SlackFake } from '../test/fixtures/plugin-fakes/slack-fake.js';
import { runFermixAsync, tempHome, waitFor } from '../test/support/daemon-process.js';
import { requireRendererBuild } from './support/build-output.js';
import { seriousViolations } from './support/axe.js';
import { launchChromium, saveScreenshot } from './support/chromium.js';
import { openWindow } from './support/window-page.js';

let fake: SlackFake;
let home: string;
let daemon: RunningDaemon;
let browser: Browser;
let page: Page;
let errors: string[] = [];

/** The real CLI, spawned asynchronously: a spawnSync would block the in-process daemon it talks to. */
const runFermix = (args: string[]) => runFermixAsync(home, args);

beforeAll(async () => {
  requireRendererBuild();
  fake = await startSlackFake();
  home = tempHome('fermix-e2e-plugins-');
  // dev_local: one valid unsigned folder (a Development card) and one with an unknown manifest field (refused, named).
  const devTool = { schema_version: 2, name: 'devtool', display_name: 'devtool', description: 'A development plugin.', category: 'developer', version: '0.0.1', min_core_version: '0.1.0', plugin_api: 2, auth: { type: 'none' }, tools: [{ name: 'devtool_ping', description: 'Ping.', read_only: true, parameters: { type: 'object', properties: {} }, request: { method: 'GET', url: 'https://api.example.com/ping' } }] };
  for (const [folder, manifest] of [['devtool', devTool], ['broken', { ...devTool, name: 'broken', colour: 'red' }]] as const) {
    mkdirSync(join(home, 'dev-plugins', folder), { recursive: true });
    writeFileSync(join(home, 'dev-plugins', folder, 'plugin.json'), JSON.stringify(manifest));
  }
  writeFileSync(join(home, 'config.toml'), '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\ndev_local = "dev-plugins"\n');
  daemon = await startDaemon({
    home,
    port: 0,
    pluginNet: { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'slack.com': fake.server.port } },
  });
  // The bundled Google trio installs itself after start; the screen is opened once it has.
  await waitFor(() => ['gmail', 'google_calendar', 'google_drive'].every((name) => existsSync(join(home, 'plugins', 'installed', name, 'current'))), 20_000, 'the bundled trio to be installed');
  browser = await launchChromium();
  ({ page, errors } = await openWindow(browser, daemon.url));
  // A step that never happens fails on its own locator, inside the test's 30 s.
  page.setDefaultTimeout(10_000);
  await page.getByRole('button', { name: 'Plugins', exact: true }).click();
});

afterAll(async () => {
  await browser?.close();
  await daemon?.stop('test done');
  await fake?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const card = (name: string) => page.locator(`article[data-plugin="${name}"]`);
const badge = (name: string) => card(name).locator('.plugin-badge');

describe('Plugins screen', () => {
  it('lists the catalog with the consent line and every card state; search and filter narrow it', async () => {
    await badge('slack').getByText('Not installed').waitFor();
    await badge('github').getByText('Not installed').waitFor();
    await card('slack').getByText("Runs inside Fermix and calls Slack's API over HTTPS").waitFor();
    await card('computer_use_sidecar').getByText('Needs setup').waitFor();
    await card('computer_use_sidecar').getByText('only while you are idle', { exact: false }).waitFor();
    await saveScreenshot(page, 'plugins-catalog-1280x800-light');

    await page.getByRole('searchbox', { name: 'Search' }).fill('github');
    await card('slack').waitFor({ state: 'detached' });
    await expect(card('github').isVisible()).resolves.toBe(true);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    // Installed: only what is always present (the bundled trio) and the dev_local folder.
    await page.getByRole('combobox', { name: 'Show' }).selectOption('installed');
    await card('slack').waitFor({ state: 'detached' });
    await card('gmail').getByText('v1.0.0 · bundled').waitFor();
    await expect(card('devtool').isVisible()).resolves.toBe(true);
    await page.getByRole('combobox', { name: 'Show' }).selectOption('all');
    await card('slack').waitFor();
  });

  it('shows a dev_local folder as a Development card and names the refused folder and field', async () => {
    await card('devtool').getByText('Development', { exact: true }).waitFor();
    await card('devtool').getByText('v0.0.1 · unsigned').waitFor();
    const note = page.getByRole('note').filter({ hasText: 'Unsigned development plugins are loaded from' });
    await note.getByText(`Refused ${join(home, 'dev-plugins', 'broken')} — invalid_manifest (colour)`, { exact: false }).waitFor();
    await page.getByRole('switch', { name: 'devtool enabled' }).click();
    await badge('devtool').getByText('Ready').waitFor();
    await card('devtool').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'plugins-dev-local-1280x800-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 800, height: 600 });
    await card('devtool').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'plugins-dev-local-800x600-dark');
    await note.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'plugins-dev-local-note-800x600-dark');
    const found = await seriousViolations(page, 'Plugins with dev_local (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect([...found, ...(await seriousViolations(page, 'Plugins with dev_local (light)'))]).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('installs with a progress bar, enables, refuses a bad key and turns Ready with a good one', async () => {
    await page.getByRole('button', { name: 'Install Slack' }).click();
    await badge('slack').getByText('Disabled').waitFor();
    // Installed but off: its tools are absent or registered hidden (they refuse with the enable hint).
    expect(daemon.capabilities.registry.find('slack_list_channels')?.hidden_from_agent ?? true).toBe(true);
    await page.getByRole('switch', { name: 'Slack enabled' }).click();
    await badge('slack').getByText('Needs API key').waitFor();
    await page.getByRole('button', { name: 'Add API key Slack' }).click();
    const form = page.getByRole('form', { name: 'Slack API key' });
    const field = form.getByLabel('API key');
    await expect(field.getAttribute('type')).resolves.toBe('password');
    // The fix button puts the focus where the key is typed.
    await form.locator('input[type="password"]:focus').waitFor();

    await field.fill('xoxb-wrong-token-0000');
    await form.getByRole('button', { name: 'Check and save' }).click();
    await form.getByRole('alert').getByText('API key rejected by Slack').waitFor();
    await expect(field.inputValue()).resolves.toBe('');
    await badge('slack').getByText('Needs API key').waitFor();
    await page.setViewportSize({ width: 800, height: 600 });
    await saveScreenshot(page, 'plugins-key-rejected-800x600-light');

    await field.fill(SLACK_GOOD_TOKEN);
    await form.getByRole('button', { name: 'Check and save' }).click();
    await form.getByRole('status').getByText('Key accepted by the health check (signed in as fermixbot@Acme)').waitFor();
    await badge('slack').getByText('Ready').waitFor();
    await card('slack').getByText('slack_list_channels', { exact: false }).waitFor();
    // The account auth.test named (user@team) stays on the card after the form's verdict is gone.
    await card('slack').locator('.plugin-tools').getByText('Connected as fermixbot@Acme.', { exact: false }).waitFor();
    expect(await page.content()).not.toContain(SLACK_GOOD_TOKEN);
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).not.toContain(SLACK_GOOD_TOKEN);
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'plugins-ready-800x600-dark');
    await page.setViewportSize({ width: 1280, height: 800 });
    await saveScreenshot(page, 'plugins-ready-1280x800-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    const capabilities = await runFermix(['capabilities', '--json']);
    expect(capabilities.code, capabilities.stderr).toBe(0);
    const names = (JSON.parse(capabilities.stdout).result.capabilities as { name: string }[]).map((cap) => cap.name);
    expect(names).toEqual(expect.arrayContaining(['slack_list_channels', 'slack_list_members']));
  });

  it('sets up the OAuth client of an oauth2 plugin in the modal, which moves it on to Connect', async () => {
    await page.getByRole('button', { name: 'Install GitHub' }).click();
    await badge('github').getByText('Disabled').waitFor();
    await page.getByRole('switch', { name: 'GitHub enabled' }).click();
    await badge('github').getByText('Needs OAuth client').waitFor();
    await page.getByRole('button', { name: 'Set up OAuth client GitHub' }).click();
    const dialog = page.getByRole('dialog', { name: 'OAuth client for github' });
    await dialog.getByLabel('Client ID').fill('Iv1.test-client-id');
    await dialog.getByLabel('Client secret').fill('test-client-secret-value');
    await saveScreenshot(page, 'plugins-oauth-client-1280x800-light');
    await dialog.getByRole('button', { name: 'Save client' }).click();
    await dialog.waitFor({ state: 'detached' });
    await badge('github').getByText('Not connected').waitFor();
    await page.getByRole('button', { name: 'Connect GitHub' }).waitFor();
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).not.toContain('test-client-secret-value');
  });

  it('refuses a tampered install with the reason and offers the reinstall', async () => {
    const installed = join(home, 'plugins', 'installed', 'slack', '1.0.0', 'plugin.json');
    appendFileSync(installed, '\n');
    // The screen re-derives readiness when it opens: leave and come back.
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: 'Plugins', exact: true }).click();
    await badge('slack').getByText('Refused').waitFor();
    await card('slack').getByText('plugin_tampered', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Reinstall Slack' }).waitFor();
    await saveScreenshot(page, 'plugins-tampered-1280x800-light');
    const caps = await runFermix(['capabilities', '--json']);
    const names = (JSON.parse(caps.stdout).result.capabilities as { name: string }[]).map((cap) => cap.name);
    expect(names).not.toContain('slack_list_channels');
    // The rejected key's answer is an HTTP 422, which Chromium logs as a failed resource: expected, nothing else.
    expect(errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
  });
});
