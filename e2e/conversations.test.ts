// Conversation management in Chromium against a real daemon (SQLite + FTS5) and the scripted model server:
// a new conversation is stored only with its first message and titled from it, rename, pin, full-text
// search, delete with undo, the keyboard shortcuts, the command palette and the shortcut sheet, and a quiet
// window (no computer-use controls while it is off, starters instead of token commands).
// Screenshots: e2e/artifacts/conversations-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall } from '../test/support/daemon-process.js';
import { messageBox, providerConfig, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

describe('managing conversations', () => {
  let server: ModelServer;
  let app: AppSession;
  const stored = async () => (await apiCall(app.daemon, 'conversations.list')).body.result.conversations as { id: string; title: string; pinned: boolean; title_source: string }[];

  beforeAll(async () => {
    server = await startModelServer();
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: { width: 1280, height: 800 } });
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('stores a new conversation only with its first message, titled from it, and keeps the window quiet', { timeout: 60_000 }, async () => {
    const { page } = app;
    const list = page.getByRole('list', { name: 'Conversations' });
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(0);
    expect(await stored()).toEqual([]);
    // Quiet: starters, no token commands, no computer-use control while it is off, no "Idle" pill in view.
    const starters = page.getByRole('list', { name: 'Suggestions' }).getByRole('button');
    expect(await starters.count()).toBe(3);
    expect(await page.getByText('/confirm TOKEN').count()).toBe(0);
    expect(await page.getByText(/Computer use/).count()).toBe(0);
    expect(await page.getByText('Idle').isVisible()).toBe(true); // announced to screen readers…
    expect((await page.getByText('Idle').boundingBox())!.width).toBeLessThanOrEqual(1); // …but not drawn
    await saveScreenshot(page, 'conversations-empty');

    server.setScript([{ text: 'Start with the folders you opened this week.' }, { text: 'Tomatoes go out after the last frost.' }]);
    await starters.first().click();
    await list.getByRole('button', { name: /Look at the files in my workspace/ }).waitFor({ timeout: 10_000 });
    await page.getByText('Start with the folders you opened this week.').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'When can I plant tomatoes outside?');
    await page.getByText('Tomatoes go out after the last frost.').waitFor({ timeout: 10_000 });
    const rows = await stored();
    expect(rows.map((row) => [row.title, row.title_source])).toEqual([
      ['When can I plant tomatoes outside?', 'auto'],
      // Long first lines are cut to their first words.
      ['Look at the files in my workspace and suggest…', 'auto'],
    ]);
    await page.getByText('Today', { exact: true }).waitFor();
    expect(app.errors).toEqual([]);
  });

  it('renames, pins, finds by message text, and deletes with undo', { timeout: 60_000 }, async () => {
    const { page } = app;
    const list = page.getByRole('list', { name: 'Conversations' });
    const row = (name: RegExp) => list.getByRole('listitem').filter({ has: page.getByRole('button', { name }) });

    await row(/plant tomatoes/).getByRole('button', { name: 'Conversation actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Conversation title' }).fill('Garden plans');
    await page.getByRole('textbox', { name: 'Conversation title' }).press('Enter');
    await list.getByRole('button', { name: /Garden plans/ }).waitFor();
    await page.getByRole('heading', { name: 'Garden plans', level: 1 }).waitFor();
    expect((await stored()).find((each) => each.title === 'Garden plans')?.title_source).toBe('user');

    await row(/Look at the files/).getByRole('button', { name: 'Conversation actions' }).click();
    await page.getByRole('menuitem', { name: 'Pin' }).click();
    await page.getByText('Pinned', { exact: true }).waitFor();
    // Pinned comes first, whatever the dates say.
    expect(await list.getByRole('listitem').first().innerText()).toContain('Look at the files');
    expect((await stored()).find((each) => each.pinned)?.title).toMatch(/^Look at the files/);
    await saveScreenshot(page, 'conversations-pinned');

    // Search by what was said, not only by title (FTS5 in the daemon, prefix on the last word).
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('frost');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByRole('button', { name: /Garden plans/ }).waitFor();
    expect(await results.getByRole('listitem').count()).toBe(1);
    expect(await results.innerText()).toContain('last frost');
    await saveScreenshot(page, 'conversations-search');
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('zebra');
    await page.getByText('No conversation mentions “zebra”.').waitFor();
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('');

    await row(/Garden plans/).getByRole('button', { name: 'Conversation actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Deleted “Garden plans”.' });
    await toast.waitFor();
    expect((await stored()).map((each) => each.title)).not.toContain('Garden plans');
    await saveScreenshot(page, 'conversations-deleted');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await list.getByRole('button', { name: /Garden plans/ }).waitFor();
    expect((await stored()).map((each) => each.title)).toContain('Garden plans');
    expect(app.errors).toEqual([]);
  });

  it('answers its shortcuts: new, search, the command palette and the shortcut sheet', { timeout: 30_000 }, async () => {
    const { page } = app;
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('Control+Shift+O');
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    await page.keyboard.press('Control+Shift+F');
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Search conversations');

    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await palette.getByRole('combobox').fill('garden');
    await palette.getByRole('option', { name: /Garden plans/ }).waitFor();
    await saveScreenshot(page, 'conversations-palette');
    await palette.getByRole('combobox').press('Enter');
    await palette.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Garden plans', level: 1 }).waitFor();
    await page.getByText('Tomatoes go out after the last frost.').waitFor();

    await page.keyboard.press('Control+K');
    await palette.getByRole('combobox').fill('settings providers');
    await palette.getByRole('combobox').press('Enter');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('Shift+Slash');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.getByText('Search conversations').waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'conversations-shortcuts-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    // "?" typed in the message box is text, not the sheet.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await messageBox(page).type('why?');
    expect(await sheet.count()).toBe(0);
    expect(app.errors).toEqual([]);
  });
});
