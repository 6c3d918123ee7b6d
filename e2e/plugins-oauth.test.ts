// OAuth sign-in through the window, in Chromium: the person sets GitHub's OAuth client in the modal,
// clicks Connect, and the provider's page opens in a new tab of the same browser — a real OAuth 2.0
// server (oidc-provider over HTTPS with a test CA, answering as github.com; Chromium reaches it through
// --host-resolver-rules) whose scripted consent redirects to Fermix's loopback listener. The card turns
// Ready with "Connected as ana" (GitHub's GET /user, through a gate that accepts only live tokens) and
// the tools reach `fermix capabilities`. Then the sign-in goes stale and the Reconnect needed badge's
// button signs in again. Only this composition root injects the loopback Net.Guard exception.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { readTokens, writeTokens } from '../main/plugins/auth/token-store.js';
import { createSecretStore } from '../main/secrets/secret-store.js';
import { startGithubGate, startOAuthServer, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type GithubGate, type OAuthServer } from '../test/fixtures/oauth-server/oauth-server.js';
import { startGithubFake, type GithubFake } from '../test/fixtures/plugin-fakes/github-fake.js';
import { runFermixAsync, tempHome } from '../test/support/daemon-process.js';
import { requireRendererBuild } from './support/build-output.js';
import { seriousViolations } from './support/axe.js';
import { launchChromium, saveScreenshot } from './support/chromium.js';
import { openWindow } from './support/window-page.js';

let as: OAuthServer;
let fake: GithubFake;
let gate: GithubGate;
let home: string;
let daemon: RunningDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  requireRendererBuild();
  as = await startOAuthServer();
  fake = await startGithubFake();
  gate = await startGithubGate(as, fake);
  home = tempHome('fermix-e2e-plugins-oauth-');
  writeFileSync(join(home, 'config.toml'), '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\n');
  daemon = await startDaemon({
    home,
    port: 0,
    pluginNet: { policy: createTestPolicy(), ca: [as.ca, gate.ca], lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'github.com': as.server.port, 'api.github.com': gate.server.port } },
  });
  // The authorization page is github.com to the browser too: resolved to the local server, its test CA accepted.
  browser = await launchChromium([`--host-resolver-rules=MAP github.com 127.0.0.1:${as.server.port}`]);
  ({ context, page, errors } = await openWindow(browser, daemon.url, { ignoreHTTPSErrors: true }));
  page.setDefaultTimeout(15_000);
  await page.getByRole('button', { name: 'Plugins', exact: true }).click();
});

afterAll(async () => {
  await browser?.close();
  await daemon?.stop('test done');
  await gate?.close();
  await fake?.close();
  await as?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const card = () => page.locator('article[data-plugin="github"]');
const badge = () => card().locator('.plugin-badge[data-status]');

/** Clicks the card's button, follows the provider's page that opens in a new tab, and returns its last text. */
async function signInThroughPopup(button: string): Promise<string> {
  const opened = context.waitForEvent('page');
  await page.getByRole('button', { name: button }).click();
  const popup = await opened;
  // Consent is scripted by the server; the tab ends on Fermix's loopback page.
  await popup.getByText('Fermix is connected to GitHub').waitFor();
  const text = await popup.locator('body').innerText();
  await popup.close();
  return text;
}

/** Screenshots at two sizes in light and dark, and axe's serious findings (none may remain) for each. */
async function shots(name: string): Promise<void> {
  const found: string[] = [];
  for (const [width, height] of [[1280, 800], [800, 600]] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await card().scrollIntoViewIfNeeded();
      await saveScreenshot(page, `${name}-${width}x${height}-${scheme}`);
      found.push(...(await seriousViolations(page, `${name} ${width}x${height} ${scheme}`)));
    }
  }
  expect(found).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('Plugins screen: OAuth sign-in in Chromium', () => {
  it('sets the client in the modal, connects on the provider page in a new tab, and turns Ready with the account and tools', async () => {
    await page.getByRole('button', { name: 'Install GitHub' }).click();
    await badge().getByText('Disabled').waitFor();
    await page.getByRole('switch', { name: 'GitHub enabled' }).click();
    await badge().getByText('Needs OAuth client').waitFor();
    await page.getByRole('button', { name: 'Set up OAuth client GitHub' }).click();
    const dialog = page.getByRole('dialog', { name: 'OAuth client for github' });
    await dialog.getByLabel('Client ID').fill(TEST_CLIENT_ID);
    await dialog.getByLabel('Client secret').fill(TEST_CLIENT_SECRET);
    await dialog.getByRole('button', { name: 'Save client' }).click();
    await dialog.waitFor({ state: 'detached' });
    await badge().getByText('Not connected').waitFor();

    expect(await signInThroughPopup('Connect GitHub')).toContain('Fermix is connected to GitHub for the github plugin.');
    await badge().getByText('Ready').waitFor();
    await card().getByText('Connected as ana.', { exact: false }).waitFor();
    await card().getByText('github_get_me', { exact: false }).waitFor();
    expect(as.grants).toEqual(['authorization_code']);
    await shots('plugins-oauth-ready');

    const capabilities = await runFermixAsync(home, ['capabilities', '--json']);
    expect(capabilities.code, capabilities.stderr).toBe(0);
    const names = (JSON.parse(capabilities.stdout).result.capabilities as { name: string; hidden_from_agent?: boolean }[]).filter((cap) => !cap.hidden_from_agent).map((cap) => cap.name);
    expect(names).toEqual(expect.arrayContaining(['github_get_me', 'github_list_repos', 'github_create_issue']));
  });

  it('shows Reconnect needed for a sign-in idle past expiry, and its button signs in again', async () => {
    const secrets = createSecretStore({ kind: 'file', fermixHome: home });
    writeTokens(secrets, 'github', { ...readTokens(secrets, 'github')!, expires_at: Date.now() - 2 * 3_600_000 });
    // The screen re-derives readiness when it opens: leave and come back.
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: 'Plugins', exact: true }).click();
    await badge().getByText('Reconnect needed').waitFor();
    await card().getByText('The sign-in has not been used for a long time', { exact: false }).waitFor();
    await shots('plugins-oauth-reconnect');

    expect(await signInThroughPopup('Reconnect GitHub')).toContain('Fermix is connected to GitHub');
    await badge().getByText('Ready').waitFor();
    expect(readTokens(secrets, 'github')!.expires_at! > Date.now()).toBe(true);
    expect(errors).toEqual([]);
  });
});
