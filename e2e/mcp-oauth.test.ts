// The window's Sign in for an OAuth MCP server, in Chromium against a real `fermix daemon` and the
// SDK-built OAuth fixture (test/fixtures/mcp-oauth/): the card says the server needs a sign-in, Sign in
// opens the authorization page (a real popup), Approve there redirects to the daemon's loopback listener,
// and the card turns Ready with the server's tools — checked against the daemon's own answers too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall } from '../test/support/daemon-process.js';
import { startOAuthMcpFixture, type OAuthMcpFixture } from '../test/fixtures/mcp-oauth/server.js';
import { startAppSession, type AppSession } from './support/app-session.js';
import { seriousViolations } from './support/axe.js';
import { saveScreenshot } from './support/chromium.js';

let fixture: OAuthMcpFixture;
let session: AppSession;
let page: Page;

beforeAll(async () => {
  fixture = await startOAuthMcpFixture();
  session = await startAppSession({
    viewport: { width: 1280, height: 800 },
    config: `[fermix_core]\nsecret_store = "file"\n\n[mcp.servers.notes]\nurl = ${JSON.stringify(fixture.url)}\noauth = true\ntimeout_ms = 10000\n`,
  });
  page = session.page;
  page.setDefaultTimeout(15_000);
  await page.getByRole('button', { name: 'Plugins', exact: true }).click();
  await page.getByRole('tab', { name: 'MCP servers' }).click();
}, 90_000);

afterAll(async () => {
  await session?.close();
  await fixture?.close();
});

const card = () => page.locator('article[data-server="notes"]');

describe('MCP sign-in in the window', () => {
  it('shows Needs sign-in, signs in through the popup, and the server turns ready with its tools', { timeout: 60_000 }, async () => {
    await card().locator('[data-status="needs_auth"]').waitFor();
    await card().getByText('notes needs you to sign in.').waitFor();
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await saveScreenshot(page, `mcp-signin-1280x800-${colorScheme}`);
      found.push(...(await seriousViolations(page, `MCP sign-in (${colorScheme})`)));
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(found).toEqual([]);

    const popup = page.context().waitForEvent('page');
    await card().getByRole('button', { name: 'Sign in to notes' }).click();
    const consent = await popup;
    await consent.getByRole('button', { name: 'Approve' }).click();
    await consent.getByRole('heading', { name: 'Signed in' }).waitFor();
    await consent.close();

    await card().locator('[data-status="ready"]').waitFor();
    await card().getByText('2 tools').waitFor();
    await saveScreenshot(page, 'mcp-signed-in-1280x800-light');
    const servers = (await apiCall(session.daemon, 'mcp.list', {})).body.result.servers as { name: string; status: string; tools: string[] }[];
    expect(servers.find((server) => server.name === 'notes')).toMatchObject({ status: 'ready', tools: ['mcp_notes_whoami', 'mcp_notes_echo'] });
    expect(fixture.counts.codeGrants).toBe(1);
    expect(session.errors).toEqual([]);
  });
});
