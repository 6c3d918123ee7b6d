// The window's layout at five sizes, light and dark, in Chromium against a real daemon: side-by-side panes
// from 900 px, one column with a conversation drawer below, a message box never under 320 px, one header
// line, a one-line hint, and the collapse choices remembered across a reload.
// Screenshots: e2e/artifacts/layout-<width>x<height>-<theme>.png (ten, one pass per size and theme).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { messageBox, providerConfig, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 800, height: 600 },
  { width: 390, height: 844 },
];

describe('the layout fits every window size', () => {
  let server: ModelServer;
  let app: AppSession;

  beforeAll(async () => {
    server = await startModelServer();
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: SIZES[0] });
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('keeps the message box wide, the header on one line and the list beside or in a drawer, light and dark', { timeout: 60_000 }, async () => {
    const { page } = app;
    server.setScript([{ text: 'Here is a short **checklist**:\n\n- passport\n- charger\n- a good book' }]);
    await sendMessage(page, 'What should I pack for a weekend trip to the mountains?');
    await page.getByRole('article', { name: 'Fermix' }).getByText('charger').waitFor({ timeout: 15_000 });
    await page.getByRole('status').filter({ hasText: 'Idle' }).waitFor();

    for (const size of SIZES) {
      await page.setViewportSize(size);
      const narrow = size.width < 900;
      const list = page.getByRole('complementary', { name: 'Conversations' });
      if (narrow) {
        // The layout follows the resize on the next frame (matchMedia's change event).
        await expect.poll(() => list.count()).toBe(0);
        await page.getByRole('button', { name: 'Show conversations' }).waitFor();
      } else {
        await list.waitFor();
      }
      const box = (await messageBox(page).boundingBox())!;
      const composer = (await page.getByRole('form', { name: 'Write a message' }).boundingBox())!;
      expect(composer.width, `composer at ${size.width}px`).toBeGreaterThanOrEqual(Math.min(320, size.width));
      expect(box.width, `message box at ${size.width}px`).toBeGreaterThanOrEqual(size.width < 500 ? 180 : 300);
      expect(box.height).toBeLessThan(80);
      // The model picker says whose model it is ("local · m") and stays inside the message box's width.
      const picker = page.locator('.model-picker');
      expect(await picker.innerText()).toMatch(/^local ·/);
      const pickerBox = (await picker.boundingBox())!;
      expect(pickerBox.x + pickerBox.width, `model picker at ${size.width}px`).toBeLessThanOrEqual(composer.x + composer.width);
      // The header is one line: title and status control side by side, never stacked pills.
      const header = (await page.locator('.conversation-header').boundingBox())!;
      expect(header.height, `header at ${size.width}px`).toBeLessThan(64);
      const hint = page.locator('.composer-hint');
      if (await hint.isVisible()) expect((await hint.boundingBox())!.height).toBeLessThan(24);
      // Nothing scrolls sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await saveScreenshot(page, `layout-${size.width}x${size.height}-${theme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }

    // One column: the drawer opens over the conversation and closes when a conversation is picked.
    await page.getByRole('button', { name: 'Show conversations' }).click();
    const drawer = page.locator('.conversation-list.drawer');
    await drawer.getByRole('button', { name: /weekend trip/ }).waitFor();
    await saveScreenshot(page, 'layout-390x844-drawer');
    await drawer.getByRole('button', { name: /weekend trip/ }).click();
    await drawer.waitFor({ state: 'detached' });
    expect(app.errors).toEqual([]);
  });

  it('collapses the navigation and hides the list, and remembers both after a reload', { timeout: 30_000 }, async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1024, height: 768 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const before = (await nav.boundingBox())!.width;
    await nav.getByRole('button', { name: 'Collapse navigation' }).click();
    await page.getByRole('button', { name: 'Hide conversations' }).click();
    await page.getByRole('complementary', { name: 'Conversations' }).waitFor({ state: 'detached' });
    expect((await nav.boundingBox())!.width).toBeLessThan(80);
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await nav.getByRole('button', { name: 'Expand navigation' }).waitFor();
    expect((await nav.boundingBox())!.width).toBeLessThan(80);
    expect(await page.getByRole('complementary', { name: 'Conversations' }).count()).toBe(0);
    const composer = (await page.getByRole('form', { name: 'Write a message' }).boundingBox())!;
    expect(composer.width).toBeGreaterThan(900);
    await saveScreenshot(page, 'layout-1024x768-collapsed');
    await page.getByRole('button', { name: 'Show conversations' }).click();
    await nav.getByRole('button', { name: 'Expand navigation' }).click();
    expect((await nav.boundingBox())!.width).toBe(before);
    expect(app.errors).toEqual([]);
  });
});
