// Eden's setup in Chromium against an in-process daemon whose `pluginNet` (test composition root only)
// points mcp.eden.so at the local HTTPS SDK fake: the card discloses that content leaves the machine,
// the person installs and enables it, a rejected token stays unstored, an accepted one lists the
// workspaces, the write profile is offered only to a write-scoped token, and after picking a workspace
// Eden turns Ready with its eden_* retrieval tools (reachable through the real CLI).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { EDEN_READ_TOKEN, startEdenFake } from '../test/fixtures/hosted-mcp/eden-fake.js';
import type { HostedFake } from '../test/fixtures/hosted-mcp/server.js';
import { runFermixAsync, tempHome } from '../test/support/daemon-process.js';
import { seriousViolations } from './support/axe.js';
import { requireRendererBuild } from './support/build-output.js';
import { launchChromium, saveScreenshot } from './support/chromium.js';
import { shootSizes } from './support/screen-shots.js';
import { openWindow } from './support/window-page.js';

let fake: HostedFake;
let home: string;
let daemon: RunningDaemon;
let browser: Browser;
let page: Page;
let errors: string[] = [];

const runFermix = (args: string[]) => runFermixAsync(home, args);

beforeAll(async () => {
  requireRendererBuild();
  fake = await startEdenFake();
  home = tempHome('fermix-e2e-eden-');
  writeFileSync(join(home, 'config.toml'), '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\n');
  daemon = await startDaemon({
    home, port: 0,
    pluginNet: { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'mcp.eden.so': fake.server.port } },
  });
  browser = await launchChromium();
  ({ page, errors } = await openWindow(browser, daemon.url));
  page.setDefaultTimeout(10_000);
  await page.getByRole('button', { name: 'Plugins', exact: true }).click();
});

afterAll(async () => {
  await browser?.close();
  await daemon?.stop('test done');
  await fake?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const card = () => page.locator('article[data-plugin="eden"]');
const badge = () => card().locator('.plugin-badge');
/** The Eden card's state in light and dark at the large window and at `small`, its badge scrolled into view. */
const shootBadge = (name: string, small: { width: number; height: number }) =>
  shootSizes(page, name, { width: 1280, height: 800 }, [{ width: 1280, height: 800 }, small], () => badge().scrollIntoViewIfNeeded());

describe('Eden setup screen', () => {
  it('enters the token, picks the workspace from the discovered list, and Eden turns Ready', async () => {
    await card().getByText('leaves this machine', { exact: false }).first().waitFor();
    await page.getByRole('button', { name: 'Install Eden' }).click();
    await badge().getByText('Disabled').waitFor();
    await page.getByRole('switch', { name: 'Eden enabled' }).click();
    await badge().getByText('Needs API key').waitFor();
    await page.getByRole('button', { name: 'Add API key Eden' }).click();
    const form = page.getByRole('form', { name: 'Eden API key' });
    const field = form.getByLabel('API key');
    await field.fill('eden_pat_notavalidtokenatall');
    await form.getByRole('button', { name: 'Check and save' }).click();
    await form.getByRole('alert').getByText('API key rejected by Eden').waitFor();
    await badge().getByText('Needs API key').waitFor();

    await field.fill(EDEN_READ_TOKEN);
    await form.getByRole('button', { name: 'Check and save' }).click();
    await badge().getByText('Needs workspace').waitFor();
    const workspaces = card().getByRole('group', { name: 'Workspace' });
    await workspaces.getByRole('radio', { name: 'Research' }).waitFor();
    await workspaces.getByRole('radio', { name: 'Home' }).check();
    const access = card().getByRole('group', { name: 'Access' });
    await expect(access.getByRole('radio', { name: /Retrieval/ }).isChecked()).resolves.toBe(true);
    // A read-only token cannot choose the write profile.
    await expect(access.getByRole('radio', { name: /Capture/ }).isDisabled()).resolves.toBe(true);
    await card().getByText('runs on Eden', { exact: false }).waitFor();
    await access.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'plugins-eden-workspace-1280x800-light');
    // The picker needs this fixture, so its accessibility check runs here rather than in a11y.test.ts.
    const found = await seriousViolations(page, 'Eden workspace picker (light)');
    await page.emulateMedia({ colorScheme: 'dark' });
    found.push(...(await seriousViolations(page, 'Eden workspace picker (dark)')));
    await page.emulateMedia({ colorScheme: 'light' });
    expect(found).toEqual([]);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'plugins-eden-workspace-800x600-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    await card().getByRole('button', { name: 'Use this workspace' }).click();
    await card().getByRole('status').getByText('Using the workspace Home with the Retrieval (read only) profile.').waitFor();
    await badge().getByText('Ready').waitFor();
    await card().getByText('eden_search_workspace_items', { exact: false }).waitFor();
    expect(await page.content()).not.toContain(EDEN_READ_TOKEN);
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).not.toContain(EDEN_READ_TOKEN);
    await badge().scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'plugins-eden-ready-1280x800-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'plugins-eden-ready-1280x800-dark');
    await page.setViewportSize({ width: 800, height: 600 });
    await saveScreenshot(page, 'plugins-eden-ready-800x600-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await saveScreenshot(page, 'plugins-eden-ready-800x600-light');
    await page.setViewportSize({ width: 390, height: 844 });
    await card().getByRole('group', { name: 'Access' }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'plugins-eden-ready-390x844-light');
    await page.setViewportSize({ width: 1280, height: 800 });

    const capabilities = await runFermix(['capabilities', '--json']);
    expect(capabilities.code, capabilities.stderr).toBe(0);
    const names = (JSON.parse(capabilities.stdout).result.capabilities as { name: string }[]).map((cap) => cap.name);
    expect(names).toEqual(expect.arrayContaining(['eden_search_workspace_items', 'eden_read_card']));
    expect(names).not.toContain('eden_list_workspaces');
    // The rejected token's answer is an HTTP 422, which Chromium logs as a failed resource: expected, nothing else.
    expect(errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
  });

  it('a tool schema that drifts upstream shows Contract changed and offers no tools', async () => {
    const original = fake.tools;
    fake.tools = original.map((tool) => (tool.name === 'eden_read_card' ? { ...tool, inputSchema: { ...tool.inputSchema, properties: { cardId: { type: 'string' }, includeComments: { type: 'boolean' } } } } : tool));
    try {
      // Switching it off and on reconnects, and the connect checks the pinned contract again.
      await page.getByRole('switch', { name: 'Eden enabled' }).click();
      await badge().getByText('Disabled').waitFor();
      await page.getByRole('switch', { name: 'Eden enabled' }).click();
      await badge().getByText('Contract changed').waitFor({ timeout: 20_000 });
      await card().getByText('changed its tools since this plugin was signed', { exact: false }).waitFor();
      await shootBadge('plugins-eden-contract', { width: 800, height: 600 });
      const capabilities = await runFermix(['capabilities', '--json']);
      const names = (JSON.parse(capabilities.stdout).result.capabilities as { name: string }[]).map((cap) => cap.name);
      expect(names.filter((name) => name.startsWith('eden_'))).toEqual([]);
    } finally {
      fake.tools = original;
    }
    expect(errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
  });

  it('a service that asks for a wait past the 60 s startup window shows Busy with the time it asked for', async () => {
    fake.intercept = (message) => (message.method === 'initialize' ? { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '120' }, body: '{}' } : undefined);
    try {
      await page.getByRole('switch', { name: 'Eden enabled' }).click();
      await badge().getByText('Disabled').waitFor();
      await page.getByRole('switch', { name: 'Eden enabled' }).click();
      await badge().getByText('Busy').waitFor({ timeout: 20_000 });
      await card().getByText(/asked Fermix to wait 120 s \(until \d\d:\d\d:\d\d UTC\), past the 60 s startup window/).waitFor();
      await shootBadge('plugins-eden-busy', { width: 390, height: 844 });
    } finally {
      fake.intercept = null;
    }
    expect(errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
  });
});
