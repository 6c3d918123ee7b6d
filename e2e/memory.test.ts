// The Memory screen in Chromium against a real daemon, reached from the command palette: memories stored through memory_store (the invoke
// boundary) are listed with category, scope and confidence; a search narrows them (and whose: owner scope
// leaves out a conversation's memories); Forget asks once, then the memory is gone from the window and the daemon.
// Screenshots: e2e/artifacts/memory-*.png at 1440×900, 1280×800, 800×600 and 390×844, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from '../test/support/daemon-process.js';
import { startAppSession, type AppSession } from './support/app-session.js';
import { shootSizes } from './support/screen-shots.js';

const VIEWPORT = { width: 1280, height: 800 };
// memory_store is read_write: an unattended call needs an allow rule (the owner's explicit choice).
const CONFIG = '[[permissions.rules]]\npermission = "memory_store"\naction = "allow"\n';

describe('the Memory screen', () => {
  let app: AppSession;

  async function remember(args: Record<string, unknown>): Promise<void> {
    const response = await apiCall(app.daemon, 'capabilities.call', { name: 'memory_store', args, origin: 'chat', conversation_id: 'trip-chat' });
    expect(response.body.error).toBeUndefined();
  }

  beforeAll(async () => {
    app = await startAppSession({ config: CONFIG, viewport: VIEWPORT });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
  });

  it('says what it is for while empty, then lists, searches and forgets memories', { timeout: 60_000 }, async () => {
    const { page } = app;
    const nav = page.getByRole('navigation', { name: 'Main' });
    // The palette lists the place: Ctrl+K, its name, Enter.
    await page.keyboard.press('Control+K');
    await page.getByRole('combobox', { name: 'Type a command or a conversation title' }).fill('Memory');
    await page.getByRole('listbox', { name: 'Commands' }).getByRole('option', { name: 'Memory' }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Memory', level: 1 }).waitFor();
    await page.getByText('Nothing is remembered yet.').waitFor();
    await shootSizes(page, 'memory-empty', VIEWPORT, [VIEWPORT, { width: 390, height: 844 }]);

    await remember({ key: 'coffee', value: 'Flat white, no sugar', category: 'preference', confidence: 0.9 });
    await remember({ key: 'timezone', value: 'Europe/Lisbon', category: 'identity' });
    await remember({ key: 'hotel', value: 'Hotel Avenida, near the white tower', category: 'context' });
    // Leave and come back: the screen loads the daemon's memories when it opens.
    await nav.getByRole('button', { name: 'Skills' }).click();
    await nav.getByRole('button', { name: 'Memory' }).click();
    const list = page.getByRole('list', { name: 'Memories' });
    const row = (key: string) => list.getByRole('listitem').filter({ hasText: key });
    await row('coffee').getByText('90% sure').waitFor();
    await row('coffee').getByText('About you').waitFor();
    await row('coffee').getByText('preference', { exact: true }).waitFor();
    await row('hotel').getByText('One conversation').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(3);
    await shootSizes(page, 'memory', VIEWPORT);

    const search = page.getByRole('search', { name: 'Search memory' });
    await search.getByRole('searchbox', { name: 'Search' }).fill('white');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('status').filter({ hasText: '2 memories for “white”.' }).waitFor();
    await search.getByRole('combobox', { name: 'Whose' }).selectOption('owner');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('status').filter({ hasText: '1 memory for “white”.' }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);

    // Forget asks once; Keep leaves it, Forget removes it.
    const forget = row('coffee').getByRole('button', { name: 'Forget' });
    await forget.click();
    await row('coffee').getByText('Forget “coffee” for good?').waitFor();
    await shootSizes(page, 'memory-forget', VIEWPORT, [VIEWPORT, { width: 390, height: 844 }]);
    await row('coffee').getByRole('button', { name: 'Keep' }).click();
    await row('coffee').getByRole('button', { name: 'Forget' }).click();
    await row('coffee').getByRole('button', { name: 'Forget' }).click();
    await row('coffee').waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Forgot “coffee”.' }).waitFor();
    expect((await apiCall(app.daemon, 'memory.list')).body.result.memories.map((memory: { key: string }) => memory.key).sort()).toEqual(['hotel', 'timezone']);
    await page.getByRole('button', { name: 'Show all' }).click();
    await row('timezone').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(2);
    expect(app.errors).toEqual([]);
  });
});
