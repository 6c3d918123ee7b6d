// The chat in Chromium against a real daemon and the scripted model server (real OpenAI streaming format):
// a streamed answer rendered as markdown with the tokens of the turn, a shell call approved from its one card, and a
// turn stopped mid-stream. Screenshots: e2e/artifacts/chat-*.png.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, toolRoundTrip, toolResultsOf, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall, waitFor } from '../test/support/daemon-process.js';
import { messageBox, providerConfig, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

const ANSWER = [
  '## Plan',
  '',
  'Here is **bold** text and `inline code`, with a [link](https://example.org/docs).',
  '',
  '- first step',
  '- second step',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  '```',
  '',
  '| tool | calls |',
  '|------|------:|',
  '| shell | 2 |',
].join('\n');

describe('chat in Chromium with the scripted model server', () => {
  let server: ModelServer;
  let app: AppSession;

  beforeAll(async () => {
    server = await startModelServer();
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI) });
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('streams an answer in, rendered as markdown, with tokens and cost for the turn', { timeout: 60_000 }, async () => {
    const { page } = app;
    server.setScript([{ text: ANSWER, chunks: 12, delayMs: 120, usage: { inputTokens: 321, outputTokens: 45 } }]);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'Make a plan');
    await page.getByRole('article', { name: 'Your message' }).getByText('Make a plan').waitFor();
    // While the answer streams, the message is busy and grows.
    const streaming = page.locator('article.message-assistant[aria-busy="true"]');
    await streaming.waitFor({ timeout: 10_000 });
    const early = await streaming.innerText();
    await page.getByRole('status').filter({ hasText: 'Answering' }).waitFor();
    await saveScreenshot(page, 'chat-streaming');
    const answer = page.getByRole('article', { name: 'Fermix' });
    await answer.getByRole('cell', { name: 'shell' }).waitFor({ timeout: 10_000 });
    expect(early.length).toBeLessThan((await answer.innerText()).length);
    await expect.poll(() => page.locator('article.message-assistant[aria-busy="true"]').count()).toBe(0);
    await answer.getByRole('heading', { name: 'Plan' }).waitFor();
    expect(await answer.locator('strong').innerText()).toBe('bold');
    expect(await answer.locator('p code').innerText()).toBe('inline code');
    expect(await answer.getByRole('listitem').allInnerTexts()).toEqual(['first step', 'second step']);
    const link = answer.getByRole('link', { name: 'link' });
    expect(await link.getAttribute('href')).toBe('https://example.org/docs');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await answer.locator('.tok-keyword').first().innerText()).toBe('const');
    await page.getByLabel('Turn usage').filter({ hasText: '321 in · 45 out tokens' }).waitFor();
    // A local model has no list price: the footer leaves the cost out instead of saying "$0" or "cost unknown".
    expect(await page.getByLabel('Turn usage').innerText()).not.toMatch(/\$0|cost unknown/);
    await page.getByRole('status').filter({ hasText: 'Idle' }).waitFor();
    await saveScreenshot(page, 'chat-streamed');
    expect(app.errors).toEqual([]);
  });

  it('parks a shell call on one card, says what "always" would allow, and completes once approved from it', { timeout: 60_000 }, async () => {
    const { page } = app;
    const command = 'echo approved > approved.txt && echo wrote it';
    server.setScript(toolRoundTrip([{ name: 'shell', arguments: { command } }], (request) => `Done: ${toolResultsOf(request).map((result) => result.content).join(' ').trim()}`));
    await sendMessage(page, '/new Approvals');
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await sendMessage(page, 'write the file');
    const card = page.getByRole('group', { name: 'Approval needed: Run a command' });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.locator('.approval-target code').innerText()).toBe(command);
    const pending = (await apiCall(app.daemon, 'approvals.list')).body.result.pending[0];
    // A compound command has no program-wide scope: "always" covers exactly this command, said in words.
    await card.getByText(/Always allow covers/).waitFor();
    const rule = await card.locator('.always-covers').innerText();
    expect(rule).toContain(pending.always_covers.pattern);
    expect(rule).toContain('Only this exact call runs without asking');
    // The tool card is the approval: no second card for the same call.
    expect(await page.getByRole('region', { name: /^Tool call shell/ }).count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'Waiting for approval' }).waitFor();
    expect(existsSync(join(app.home, 'workspace', 'approved.txt'))).toBe(false);
    await saveScreenshot(page, 'chat-approval-card');

    // A reload while the turn waits finds the card again (from approvals.list), not a blank thread.
    await page.reload();
    await card.waitFor({ timeout: 10_000 });
    await card.getByRole('button', { name: 'Allow once', exact: true }).click();
    await page.getByRole('region', { name: 'Tool call shell: Done' }).getByText('Allowed once').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('group', { name: /^Approval needed/ }).count()).toBe(0);
    await page.getByRole('article', { name: 'Fermix' }).filter({ hasText: 'Done: wrote it' }).waitFor({ timeout: 15_000 });
    expect(readFileSync(join(app.home, 'workspace', 'approved.txt'), 'utf8')).toBe('approved\n');
    await page.getByRole('status').filter({ hasText: 'Idle' }).waitFor();
    await saveScreenshot(page, 'chat-approved');
    expect(app.errors).toEqual([]);
  });

  it('stops a turn mid-stream with Escape, and the model request is aborted', { timeout: 60_000 }, async () => {
    const { page } = app;
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
    server.setScript([{ text: words, chunks: 60, delayMs: 250 }]);
    await sendMessage(page, '/new Stopping');
    await page.getByRole('heading', { name: 'Stopping', level: 1 }).waitFor();
    await sendMessage(page, 'talk for a long time');
    const answer = page.locator('article.message-assistant[aria-busy="true"]');
    await answer.getByText(/word2/).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Stop the running turn (Escape)' }).waitFor();
    await messageBox(page).press('Escape');
    await page.getByLabel('Turn usage').getByText('Stopped').waitFor({ timeout: 10_000 });
    const shown = await page.locator('article.message-assistant').last().innerText();
    expect(shown).toContain('word0');
    expect(shown).not.toContain('word59');
    await waitFor(() => server.requests.at(-1)?.aborted === true, 5_000, 'the model request to be aborted');
    expect(await page.getByRole('button', { name: 'Stop the running turn (Escape)' }).count()).toBe(0);
    await saveScreenshot(page, 'chat-stopped');
    expect(app.errors).toEqual([]);
  });

  it('stops a turn with Escape from anywhere in the window, but not while a dialog takes the Escape', { timeout: 60_000 }, async () => {
    const { page } = app;
    const words = Array.from({ length: 60 }, (_, index) => `far${index}`).join(' ');
    server.setScript([{ text: words, chunks: 60, delayMs: 250 }]);
    await sendMessage(page, '/new Stopping from afar');
    await page.getByRole('heading', { name: 'Stopping from afar', level: 1 }).waitFor();
    await sendMessage(page, 'talk for a long time again');
    await page.locator('article.message-assistant[aria-busy="true"]').getByText(/far2/).waitFor({ timeout: 10_000 });
    // The command palette takes the first Escape (it closes); the turn goes on.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    await page.locator('article.message-assistant[aria-busy="true"]').getByText(/far6/).waitFor({ timeout: 10_000 });
    expect(await page.getByLabel('Turn usage').getByText('Stopped').count()).toBe(0);
    // Focus outside the message box (the conversation's heading area), then Escape stops the turn.
    await page.getByRole('heading', { name: 'Stopping from afar', level: 1 }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel('Turn usage').getByText('Stopped').waitFor({ timeout: 10_000 });
    await waitFor(() => server.requests.at(-1)?.aborted === true, 5_000, 'the model request to be aborted');
    expect(await page.locator('article.message-assistant').last().innerText()).not.toContain('far59');
    expect(app.errors).toEqual([]);
  });

  it('reads well in the dark theme: the approved turn with its cards', { timeout: 60_000 }, async () => {
    const dark = await app.browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: 'dark' });
    try {
      const night = await dark.newPage();
      await night.goto(app.daemon.url);
      await night.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /Approvals/ }).click();
      await night.getByRole('region', { name: 'Tool call shell: Done' }).waitFor({ timeout: 10_000 });
      expect(await night.evaluate('getComputedStyle(document.documentElement).backgroundColor')).toBe('rgb(21, 21, 29)');
      await saveScreenshot(night, 'chat-dark');
    } finally {
      await dark.close();
    }
  });
});
