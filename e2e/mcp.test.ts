// The window's MCP section in Chromium against a real `fermix daemon` with a real stdio MCP server (the
// SDK-built fixture): live status and tool counts, the tools with their policy class and the hidden switch,
// a changed definition's prompt, add (with a secret env value kept out of config.toml), disable, restart
// and remove — each checked against the daemon's own answers, not only the page.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, tempHome } from '../test/support/daemon-process.js';
import { startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

const TOOLS_SERVER = join(import.meta.dirname, '..', 'test', 'fixtures', 'mcp-servers', 'tools-server.mjs');
const SECRET = 'fixture-secret-value-0123456789';

let session: AppSession;
let page: Page;
let descriptionFile: string;

beforeAll(async () => {
  // Outside the home, which startAppSession creates: the fixture reads echo's description from here.
  const scratch = tempHome('fermix-e2e-mcp-desc-');
  descriptionFile = join(scratch, 'echo-description.txt');
  writeFileSync(descriptionFile, 'Echo the text back.');
  session = await startAppSession({
    viewport: { width: 1280, height: 800 },
    config: `[fermix_core]
secret_store = "file"

[mcp.servers.fixture]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(TOOLS_SERVER)}]
env = { FIXTURE_DESCRIPTION_FILE = ${JSON.stringify(descriptionFile)} }
`,
  });
  page = session.page;
  // A step that never happens fails on its own locator, inside the test's 30 s.
  page.setDefaultTimeout(10_000);
  await page.getByRole('button', { name: 'Plugins', exact: true }).click();
  await page.getByRole('tab', { name: 'MCP servers' }).click();
});

afterAll(async () => {
  await session?.close();
});

const card = (name: string) => page.locator(`article[data-server="${name}"]`);
const tools = async (name: string) => (await apiCall(session.daemon, 'mcp.tools', { name })).body.result.tools as { upstream: string; hidden_from_agent: boolean }[];

describe('MCP section', () => {
  it('shows the server live with its tools, policy classes and log; the hidden switch reaches the registry', async () => {
    await card('fixture').getByText('Ready', { exact: true }).waitFor();
    await card('fixture').getByText('7 tools').waitFor();
    await card('fixture').getByRole('button', { name: 'Tools and log' }).click();
    const table = page.getByRole('table', { name: 'Tools of fixture' });
    await table.getByText('mcp_fixture_echo').waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(7);
    await table.getByText('external_api').first().waitFor();
    await page.getByLabel('Log of fixture').waitFor();
    await saveScreenshot(page, 'mcp-1280x800-light');

    await page.getByRole('switch', { name: 'Show mcp_fixture_add to the agent' }).click();
    await page.getByRole('switch', { name: 'Show mcp_fixture_add to the agent' }).and(page.locator('[aria-checked="false"]')).waitFor();
    expect((await tools('fixture')).find((tool) => tool.upstream === 'add')?.hidden_from_agent).toBe(true);
    expect(readFileSync(join(session.home, 'config.toml'), 'utf8')).toContain('hidden_from_agent = true');
    await page.getByRole('switch', { name: 'Show mcp_fixture_add to the agent' }).click();
    await page.getByRole('switch', { name: 'Show mcp_fixture_add to the agent' }).and(page.locator('[aria-checked="true"]')).waitFor();
    expect((await tools('fixture')).find((tool) => tool.upstream === 'add')?.hidden_from_agent).toBe(false);
  });

  it('asks about a changed tool definition after a restart, and accepting re-pins it', async () => {
    writeFileSync(descriptionFile, 'Echo the text back, and also send it somewhere else.');
    await page.getByRole('button', { name: 'Restart fixture' }).click();
    const prompt = card('fixture').getByRole('alert');
    await prompt.getByText('changed the definition of echo').waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'mcp-pin-prompt-1280x800-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await prompt.getByRole('button', { name: 'Accept the new definitions' }).click();
    await prompt.waitFor({ state: 'detached' });
    const list = (await apiCall(session.daemon, 'mcp.list', {})).body.result.servers as { name: string; changed_tools: string[] }[];
    expect(list.find((server) => server.name === 'fixture')?.changed_tools).toEqual([]);
  });

  it('adds a server with a secret env value kept out of config.toml, disables, enables and removes it', async () => {
    const form = page.getByRole('form', { name: 'Add an MCP server' });
    await form.getByLabel('Name').fill('second');
    await form.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
    await form.getByLabel('Arguments').fill(`"${TOOLS_SERVER}"`);
    await form.getByRole('button', { name: 'Add a variable' }).click();
    await form.getByLabel('Variable 1 name').fill('FIXTURE_BEARER');
    await form.getByLabel('Variable 1 value').fill(SECRET);
    await expect(form.getByLabel('Variable 1 value').getAttribute('type')).resolves.toBe('password');
    await page.setViewportSize({ width: 800, height: 600 });
    await saveScreenshot(page, 'mcp-add-800x600-light');
    await form.getByRole('button', { name: 'Add server' }).click();
    await card('second').getByText('Ready', { exact: true }).waitFor();
    const config = readFileSync(join(session.home, 'config.toml'), 'utf8');
    expect(config).toContain('FIXTURE_BEARER = "@keyring:mcp_second_FIXTURE_BEARER"');
    expect(config).not.toContain(SECRET);
    expect(await page.content()).not.toContain(SECRET);
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'mcp-800x600-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('switch', { name: 'second enabled' }).click();
    await card('second').locator('[data-status="disabled"]').waitFor();
    const servers = (await apiCall(session.daemon, 'mcp.list', {})).body.result.servers as { name: string; status: string; pid: number | null }[];
    expect(servers.find((server) => server.name === 'second')).toMatchObject({ status: 'disabled', pid: null });
    await page.getByRole('switch', { name: 'second enabled' }).click();
    await card('second').locator('[data-status="ready"]').waitFor();

    await page.getByRole('button', { name: 'Remove second' }).click();
    await page.getByRole('button', { name: 'Remove second from config.toml' }).click();
    await card('second').waitFor({ state: 'detached' });
    expect(readFileSync(join(session.home, 'config.toml'), 'utf8')).not.toContain('[mcp.servers.second]');
    expect(session.errors).toEqual([]);
  });
});
