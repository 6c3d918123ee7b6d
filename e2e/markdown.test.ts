// Replies through react-markdown (+ GFM) with lazily loaded highlight.js grammars, and the thread windowed by
// @tanstack/react-virtual, in Chromium against a real daemon and the scripted model server. Screenshots:
// e2e/artifacts/markdown-answer-*.png (1280×800 and 800×600, light and dark).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { openDatabase } from '../main/store/database.js';
import { createTurnStore } from '../main/store/turns.js';
import { providerConfig, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { shootConversation } from './support/chat-shots.js';

const ANSWER = [
  '# Moving the service',
  '',
  'Three steps, with <b>raw HTML</b> kept as text and a [bad link](javascript:alert(1)) refused.',
  '',
  '## Steps',
  '',
  '1. Stop the old one',
  '2. Copy the data',
  '3. Start the new one',
  '',
  '- [x] backup taken',
  '- [ ] DNS switched',
  '',
  '| host | role | cores |',
  '|------|------|------:|',
  '| alpha | primary | 8 |',
  '| beta | replica | 4 |',
  '',
  '```ts',
  'export async function migrate(from: string, to: string): Promise<number> {',
  '  const rows = await copy(from, to); // every table',
  '  return rows.length;',
  '}',
  '```',
  '',
  'Done — see [the runbook](https://example.org/runbook).',
].join('\n');

const SEEDED_TURNS = 1000;

/** A 2,000-message conversation written into the database before the daemon opens it (chat.send would take ~30 s). */
function seedLongConversation(home: string) {
  const db = openDatabase(join(home, 'fermix.db'), { ownsDaemonLock: true });
  try {
    const turns = createTurnStore(db);
    turns.ensureConversation('long', 'Two thousand messages');
    for (let index = 1; index <= SEEDED_TURNS; index += 1) {
      turns.createTurn(`T${index}`, 'long', { trust: 'operator', origin: 'chat', interactive: true, kind: 'interactive' });
      turns.appendMessage('long', `T${index}`, { role: 'user', text: `Question number ${index}` });
      turns.appendMessage('long', `T${index}`, { role: 'assistant', text: `Answer number ${index} with **bold** and \`code\`.`, toolCalls: [] });
      turns.finishTurn(`T${index}`, { status: 'completed', stop_reason: 'stop' });
    }
  } finally {
    db.close();
  }
}

describe('markdown replies and the windowed thread', () => {
  let server: ModelServer;
  let app: AppSession;

  beforeAll(async () => {
    server = await startModelServer();
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: { width: 1280, height: 800 }, prepareHome: seedLongConversation });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('renders a GFM table, a task list and a code block highlighted after the grammars load; refuses a javascript: link and shows raw HTML as text', { timeout: 60_000 }, async () => {
    const { page } = app;
    const grammars: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/highlighter-[\w-]+\.js$/.test(request.url())) grammars.push(request.url());
    });
    server.setScript([{ text: ANSWER, chunks: 10, delayMs: 60 }]);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'How do I move the service?');
    const answer = page.getByRole('article', { name: 'Fermix' });
    await answer.getByRole('heading', { name: 'Moving the service' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('article.message-assistant[aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);

    // Table and task list (GFM).
    const table = answer.getByRole('table');
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['host', 'role', 'cores']);
    expect(await table.getByRole('cell').allInnerTexts()).toEqual(['alpha', 'primary', '8', 'beta', 'replica', '4']);
    expect(await table.getByRole('cell', { name: '8' }).evaluate((cell) => (globalThis as unknown as { getComputedStyle(element: unknown): { textAlign: string } }).getComputedStyle(cell).textAlign)).toBe('right');
    const done = answer.getByRole('checkbox', { name: 'done', exact: true });
    expect(await done.isChecked()).toBe(true);
    expect(await done.isDisabled()).toBe(true);
    expect(await answer.getByRole('checkbox', { name: 'not done' }).isChecked()).toBe(false);

    // The code block: readable at once, coloured once the lazily imported grammars arrive.
    const block = answer.locator('.code-block');
    await block.locator('.tok-keyword').first().waitFor({ timeout: 15_000 });
    expect(await block.locator('.tok-keyword').allInnerTexts()).toEqual(expect.arrayContaining(['export', 'async', 'function', 'const', 'await', 'return']));
    expect(await block.locator('.tok-comment').innerText()).toBe('// every table');
    expect(grammars).toHaveLength(1);
    expect(await block.getByRole('button', { name: 'Copy ts code' }).count()).toBe(1);

    // Safety: the javascript: link is text, raw HTML is text, the good link opens outside.
    expect(await answer.getByRole('link').count()).toBe(1);
    expect(await answer.getByRole('link', { name: 'the runbook' }).getAttribute('rel')).toBe('noopener noreferrer');
    expect(await answer.innerText()).toContain('bad link (javascript:alert(1))');
    expect(await answer.innerText()).toContain('<b>raw HTML</b>');
    expect(await answer.locator('b').count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'Idle' }).waitFor();
    expect(app.errors).toEqual([]);

    await shootConversation(app.browser, app.daemon.url, /^How do I move the service/, 'markdown-answer', [
      { width: 1280, height: 800, colorScheme: 'light' },
      { width: 1280, height: 800, colorScheme: 'dark' },
      { width: 800, height: 600, colorScheme: 'light' },
      { width: 800, height: 600, colorScheme: 'dark' },
    ], (shot) => shot.locator('.code-block .tok-keyword').first().waitFor({ timeout: 15_000 }));
  });

  it('keeps a bounded number of rows of a 2,000-message conversation in the DOM, and Home scrolls to the first message', { timeout: 60_000 }, async () => {
    const { page } = app;
    await page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /^Two thousand messages/ }).click();
    const thread = page.getByRole('list', { name: 'Messages' });
    await thread.getByText(`Answer number ${SEEDED_TURNS} with`).waitFor({ timeout: 30_000 });
    const rows = thread.getByRole('listitem');
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(60);
    // The set size tells assistive technology how long the conversation is, though few rows are present.
    expect(Number(await rows.first().getAttribute('aria-setsize'))).toBeGreaterThanOrEqual(2 * SEEDED_TURNS);
    expect(await page.locator('.message').count()).toBeLessThanOrEqual(60);
    expect(await thread.getByText('Question number 1', { exact: true }).count()).toBe(0);

    // Keyboard: the thread takes focus and Home goes to the top, where the first message is rendered.
    await page.getByRole('log', { name: 'Messages' }).focus();
    await page.keyboard.press('Home');
    await thread.getByText('Question number 1', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await rows.count()).toBeLessThanOrEqual(60);
    expect(await thread.getByText(`Answer number ${SEEDED_TURNS} with`).count()).toBe(0);
    // And End goes back to the newest.
    await page.keyboard.press('End');
    await thread.getByText(`Answer number ${SEEDED_TURNS} with`).waitFor({ timeout: 15_000 });
    // At the bottom, a smaller and then a larger window keep the newest answer in view.
    const scroller = page.getByRole('log', { name: 'Messages' });
    const newestInView = async () => {
      const box = (await scroller.boundingBox())!;
      const newest = await thread.getByText(`Answer number ${SEEDED_TURNS} with`).boundingBox();
      return newest !== null && newest.y + newest.height <= box.y + box.height + 1 && newest.y >= box.y - 1;
    };
    const original = page.viewportSize()!;
    for (const size of [{ width: 800, height: 600 }, { width: 390, height: 700 }, original]) {
      await page.setViewportSize(size);
      await expect.poll(newestInView, { timeout: 10_000 }).toBe(true);
    }
    expect(app.errors).toEqual([]);
  });
});
