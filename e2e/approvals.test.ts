// Approval cards in Chromium against a real daemon (issue item 3): one card per call — the tool card is the
// approval while it waits and one line after —, plain words with the exact command or the content a write
// puts in the file, "Always allow" in words with a choice of the daemon's scopes (`git status *` or exactly this
// command; later `git status -s` runs unasked, `git push` still asks), keys (the card takes
// focus: Enter once, A always, D/Escape deny), a message sent meanwhile says it is queued behind the card,
// and the tool's duration counts only its run, not the wait. Screenshots: e2e/artifacts/approvals-*.png.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessageIsToolResult, lastUserText, startModelServer, toolResultsOf, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall, waitFor } from '../test/support/daemon-process.js';
import { providerConfig, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';
import { shootConversation } from './support/chat-shots.js';

/** The focus is inside an approval card (a string: the e2e tsconfig has no DOM types). */
const cardHasFocus = (page: Page) => page.evaluate<boolean>("document.activeElement?.closest('.approval-card') !== null");

const WRITTEN = 'first line of the note\nsecond line of the note';

describe('approval cards', () => {
  let server: ModelServer;
  let app: AppSession;

  beforeAll(async () => {
    server = await startModelServer();
    // The model asks for one tool per message word; a tool result is answered with its first line.
    server.setScript((request) => {
      if (lastMessageIsToolResult(request)) return { text: `Result: ${toolResultsOf(request).map((result) => String(result.content).split('\n')[0]).join(' ')}` };
      const said = lastUserText(request);
      if (said === 'init a repo') return { toolCalls: [{ name: 'shell', arguments: { command: 'git init' } }] };
      if (said.startsWith('status')) return { toolCalls: [{ name: 'shell', arguments: { command: said === 'status again' ? 'git status -s' : 'git status --short' } }] };
      if (said === 'push it') return { toolCalls: [{ name: 'shell', arguments: { command: 'git push' } }] };
      if (said === 'write a note') return { toolCalls: [{ name: 'file_write', arguments: { path: 'note.txt', content: WRITTEN } }] };
      return { text: `You said: ${said}` };
    });
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: { width: 1280, height: 800 } });
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('shows one focused card in plain words, queues a message behind it, allows with Enter and collapses to one line; the duration leaves out the wait', { timeout: 60_000 }, async () => {
    const { page } = app;
    await sendMessage(page, '/new Approvals');
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await sendMessage(page, 'init a repo');
    const card = page.getByRole('group', { name: 'Approval needed: Run a command' });
    await card.waitFor({ timeout: 15_000 });
    const parkedAt = Date.now();
    // One card for the call: no second "tool call" card while it waits.
    expect(await page.getByRole('region', { name: /^Tool call shell/ }).count()).toBe(0);
    expect(await card.locator('.approval-target code').innerText()).toBe('git init');
    await card.getByText(/Always allow covers git init with any arguments/).waitFor();
    expect(await card.innerText()).not.toContain('policy class');
    expect(await card.innerText()).not.toContain('permission =');
    const pending = (await apiCall(app.daemon, 'approvals.list')).body.result.pending[0];
    expect(pending.always_covers.pattern).toBe('git init *');
    if (pending.warning) expect(await card.locator('.approval-warning').innerText()).toBe(pending.warning);
    // The card took focus, and its buttons are named by what they show.
    await expect.poll(() => cardHasFocus(page)).toBe(true);
    for (const name of ['Allow once', 'Always allow', 'Deny']) await card.getByRole('button', { name, exact: true }).waitFor();

    // Typed while the card waits: the message says it is queued behind the approval.
    await sendMessage(page, 'after that?');
    await page.getByRole('status').filter({ hasText: 'Queued — it runs after the approval above is answered' }).waitFor({ timeout: 10_000 });
    await saveScreenshot(page, 'approvals-shell-1280x800-light');

    // The other sizes and themes of the waiting card, while it waits (it counts toward the wait below).
    await shootConversation(app.browser, app.daemon.url, /^Approvals/, 'approvals-shell', [{ width: 1280, height: 800, colorScheme: 'dark' }, { width: 800, height: 600, colorScheme: 'light' }], 'Run a command?');
    // Enough waiting that a duration including it could not pass for the run of `git init`.
    await waitFor(() => Date.now() - parkedAt >= 1_500, 5_000, 'time to pass while the card waits');
    await card.locator('.approval-panel').focus();
    await page.keyboard.press('Enter');
    const line = page.getByRole('region', { name: 'Tool call shell: Done' });
    await line.waitFor({ timeout: 15_000 });
    await line.getByText('Allowed once').waitFor();
    expect(await page.getByRole('group', { name: /^Approval needed/ }).count()).toBe(0);
    expect(existsSync(join(app.home, 'workspace', '.git'))).toBe(true);
    await page.getByRole('article', { name: 'Fermix' }).filter({ hasText: 'You said: after that?' }).waitFor({ timeout: 15_000 });
    const waited = Date.now() - parkedAt;

    const [newest] = (await apiCall(app.daemon, 'conversations.list')).body.result.conversations;
    const turns = (await apiCall(app.daemon, 'chat.turns', { conversation_id: newest.id })).body.result.turns;
    const call = turns.flatMap((turn: { tool_calls: { name: string; duration_ms: number }[] }) => turn.tool_calls).find((each: { name: string }) => each.name === 'shell');
    expect(call.duration_ms).toBeLessThan(1_500);
    expect(call.duration_ms).toBeLessThan(waited);
    const audit = (await apiCall(app.daemon, 'audit.query', { limit: 20 })).body.result.records.find((record: { capability: string; decision: string; approval: string | null }) => record.capability === 'shell' && record.decision === 'allow' && record.approval === 'once');
    // The thread's duration is the audit's run time (execution only), give or take the bookkeeping around it.
    expect(call.duration_ms).toBeGreaterThanOrEqual(audit.duration_ms);
    await saveScreenshot(page, 'approvals-answered-1280x800-light');
    expect(app.errors).toEqual([]);
  });

  it('"Always allow" offers a scope choice; "git status *" is saved, a later `git status -s` runs without asking and `git push` still asks', { timeout: 90_000 }, async () => {
    const { page } = app;
    await sendMessage(page, 'status please');
    const card = page.getByRole('group', { name: 'Approval needed: Run a command' });
    await card.waitFor({ timeout: 15_000 });
    await card.getByText(/Always allow covers git status with any arguments/).waitFor();
    await expect.poll(() => cardHasFocus(page)).toBe(true);
    // The scopes in words, the daemon's default (program and subcommand) first.
    const scope = card.getByRole('combobox', { name: 'Always allow applies to' });
    expect(await scope.locator('option').allTextContents()).toEqual(['Commands starting with “git status” (git status *)', 'Exactly this command: git status --short']);
    // Choosing "exactly" changes what the sentence says will be saved; choosing back restores it.
    await scope.selectOption('exact');
    await card.getByText(/Always allow covers git status --short exactly/).waitFor();
    // Other sizes and the dark theme in this same window (no second sign-in): the select wraps under its label.
    for (const [width, height, colorScheme] of [[1280, 800, 'light'], [1280, 800, 'dark'], [800, 600, 'dark'], [390, 844, 'light']] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await card.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `approvals-scope-${width}x${height}-${colorScheme}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await scope.selectOption('command');
    await card.getByText(/Always allow covers git status with any arguments/).waitFor();
    await card.getByRole('button', { name: 'Always allow', exact: true }).click();
    await page.getByRole('region', { name: /^Tool call shell: (Done|Failed)/ }).filter({ hasText: 'Always allowed' }).waitFor({ timeout: 15_000 });
    expect(readFileSync(join(app.home, 'config.toml'), 'utf8')).toContain('pattern = "git status *"');

    await sendMessage(page, 'status again');
    await page.getByRole('region', { name: /^Tool call shell/ }).filter({ hasText: 'git status -s' }).waitFor({ timeout: 15_000 });
    await page.getByRole('article', { name: 'Fermix' }).filter({ hasText: /Result:/ }).last().waitFor();
    expect((await apiCall(app.daemon, 'approvals.list')).body.result.pending).toEqual([]);

    // Another subcommand of the same program is not covered: it asks, and D denies it.
    await sendMessage(page, 'push it');
    const push = page.getByRole('group', { name: 'Approval needed: Run a command' });
    await push.waitFor({ timeout: 15_000 });
    expect(await push.locator('.approval-target code').innerText()).toBe('git push');
    expect((await apiCall(app.daemon, 'approvals.list')).body.result.pending.map((each: { args: { command: string } }) => each.args.command)).toEqual(['git push']);
    await expect.poll(() => cardHasFocus(page)).toBe(true);
    await page.keyboard.press('d');
    await page.getByRole('region', { name: /^Tool call shell/ }).filter({ hasText: 'git push' }).getByText('Denied — it did not run').waitFor({ timeout: 15_000 });
    expect(app.errors).toEqual([]);
  });

  it('shows what a file write will put in the file, and D denies it (in a small dark window)', { timeout: 60_000 }, async () => {
    const { page } = app;
    await sendMessage(page, 'write a note');
    await page.getByRole('group', { name: 'Approval needed: Write a file' }).waitFor({ timeout: 15_000 });
    const night = await app.browser.newContext({ viewport: { width: 800, height: 600 }, colorScheme: 'dark' });
    try {
      const small = await night.newPage();
      await small.goto(app.daemon.url);
      // Under 900 px the conversation list is a drawer.
      await small.getByRole('button', { name: 'Show conversations' }).click();
      await small.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /Approvals/ }).click();
      const card = small.getByRole('group', { name: 'Approval needed: Write a file' });
      await card.waitFor({ timeout: 15_000 });
      expect(await card.locator('.approval-target code').innerText()).toBe('note.txt');
      const preview = card.getByRole('figure', { name: 'What will be written' });
      expect((await preview.locator('.diff-add').allTextContents()).map((line) => line.trim())).toEqual(['+ first line of the note', '+ second line of the note']);
      await expect.poll(() => cardHasFocus(small)).toBe(true);
      await saveScreenshot(small, 'approvals-file-write-800x600-dark');
      await small.keyboard.press('d');
      await small.getByRole('region', { name: /^Tool call file_write/ }).getByText('Denied — it did not run').waitFor({ timeout: 15_000 });
      await saveScreenshot(small, 'approvals-denied-800x600-dark');
    } finally {
      await night.close();
    }
    await page.getByRole('region', { name: /^Tool call file_write/ }).getByText('Denied — it did not run').waitFor({ timeout: 15_000 });
    expect(existsSync(join(app.home, 'workspace', 'note.txt'))).toBe(false);
    await saveScreenshot(page, 'approvals-denied-1280x800-light');
    expect(app.errors).toEqual([]);
  });
});
