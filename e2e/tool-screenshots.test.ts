// Screenshots from both desktop tools inline in the chat: one turn of the scripted model calls the managed
// browser (a page on 127.0.0.1, then its screenshot) and computer_use (a screenshot of the suite's Xvfb,
// where that browser's window is open); the window shows both images under their tool cards, live and after a
// reload (chat.history). Needs an X display (ci/with-desktop.sh). Screenshots: e2e/artifacts/tool-screenshots-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../main/browser/test-pages.js';
import { startModelServer, toolResultsOf, type ModelServer } from '../test/fixtures/model-server/index.js';
import { providerConfig, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { seriousViolations } from './support/axe.js';
import { saveScreenshot } from './support/chromium.js';

if (!process.env.DISPLAY) throw new Error('This e2e test needs an X display for computer_use: run it as `sh ci/with-desktop.sh npx vitest run e2e/tool-screenshots.test.ts`.');

/** The little of the DOM headerFits reads (the e2e files compile without the DOM library). */
interface DomBox { right: number; top: number; bottom: number }
interface DomNode { getBoundingClientRect(): DomBox; children: ArrayLike<DomNode>; scrollWidth: number; clientWidth: number; querySelector(selector: string): DomNode | null }

/** In the page: the card header's children stay inside it and its ▸ chevron (::after) ends inside its box. */
function headerFits(element: unknown): { overflows: boolean; chevronInside: boolean; summaryCut: boolean } {
  const node = element as DomNode;
  const style = (globalThis as unknown as { getComputedStyle(target: DomNode, pseudo?: string): { paddingRight: string; width: string } }).getComputedStyle;
  const box = node.getBoundingClientRect();
  const children = Array.from(node.children).map((child) => child.getBoundingClientRect());
  const padding = parseFloat(style(node).paddingRight) || 0;
  const lastRight = Math.max(...children.map((rect) => rect.right));
  const chevron = parseFloat(style(node, '::after').width) || 0;
  const summary = node.querySelector('.tool-summary');
  return {
    overflows: node.scrollWidth > node.clientWidth + 1 || children.some((rect) => rect.right > box.right + 0.5 || rect.top >= box.bottom),
    chevronInside: chevron > 0 && lastRight + chevron <= box.right - padding + 1,
    summaryCut: summary ? summary.scrollWidth > summary.clientWidth : false,
  };
}

describe('tool screenshots in the chat', () => {
  let server: ModelServer;
  let site: TestSite;
  let app: AppSession;

  beforeAll(async () => {
    server = await startModelServer();
    site = await startTestSite();
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI, '[fermix_core.computer_use]\nenabled = true\n\n[permissions]\nmode = "auto"'), viewport: { width: 1280, height: 800 } });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await site?.close();
    await server?.close();
  });

  it('shows the browser\'s and computer_use\'s screenshots inline, live and after a reload', { timeout: 90_000 }, async () => {
    const { page } = app;
    server.setScript((request) =>
      toolResultsOf(request).length > 0
        ? { text: 'I looked at the booking page in the browser and at your screen.' }
        : {
            toolCalls: [
              { name: 'browser', arguments: { action: 'navigate', url: `${site.origin}/form` } },
              { name: 'browser', arguments: { action: 'screenshot' } },
              { name: 'computer_use', arguments: { action: 'screenshot' } },
            ],
          },
    );
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'Screens: look at the booking page and at my desktop');
    await page.getByRole('article', { name: 'Fermix' }).filter({ hasText: 'at your screen' }).waitFor({ timeout: 60_000 });
    const browserShot = page.getByRole('img', { name: 'Image 1 returned by browser' });
    const desktopShot = page.getByRole('img', { name: 'Image 1 returned by computer_use' });
    await browserShot.waitFor();
    await desktopShot.waitFor();
    // Real pictures, decoded by the window: the browser's viewport and the 1280×800 Xvfb screen.
    const sizes = async () => Promise.all([browserShot, desktopShot].map((img) => img.evaluate((node) => { const image = node as unknown as { naturalWidth: number; naturalHeight: number }; return [image.naturalWidth, image.naturalHeight]; })));
    await expect.poll(sizes).toEqual([[expect.any(Number), expect.any(Number)], [1280, 800]]);
    expect((await sizes())[0][0]).toBeGreaterThan(300);
    const liveBytes = await Promise.all([browserShot, desktopShot].map((img) => img.getAttribute('src')));

    // chat.history brings them back after a reload (the newest 3 of a conversation; these are 2), the same bytes.
    await page.reload();
    await browserShot.waitFor({ timeout: 15_000 });
    await desktopShot.waitFor({ timeout: 15_000 });
    await expect.poll(sizes, { timeout: 15_000 }).toEqual([[expect.any(Number), expect.any(Number)], [1280, 800]]);
    expect(await Promise.all([browserShot, desktopShot].map((img) => img.getAttribute('src')))).toEqual(liveBytes);

    // Several sizes and both themes of the reloaded page; at 390 px the card header keeps its status and
    // its chevron on the line, the arguments cut with an ellipsis.
    const headers = page.locator('.tool-line-summary');
    for (const shot of [
      { width: 1280, height: 800, colorScheme: 'light' },
      { width: 800, height: 600, colorScheme: 'light' },
      { width: 800, height: 600, colorScheme: 'dark' },
      { width: 390, height: 844, colorScheme: 'light' },
      { width: 390, height: 844, colorScheme: 'dark' },
    ] as const) {
      await page.setViewportSize({ width: shot.width, height: shot.height });
      await page.emulateMedia({ colorScheme: shot.colorScheme });
      // The cards with their images pass the accessibility check the other screens pass (e2e/a11y.test.ts).
      expect(await seriousViolations(page, `chat with tool screenshots ${shot.width}x${shot.height} (${shot.colorScheme})`)).toEqual([]);
      const fits = await Promise.all((await headers.all()).map((header) => header.evaluate(headerFits)));
      expect(fits).toHaveLength(3);
      expect(fits).toEqual(fits.map(() => ({ overflows: false, chevronInside: true, summaryCut: expect.any(Boolean) })));
      for (const [which, img] of [['browser', browserShot], ['desktop', desktopShot]] as const) {
        await img.scrollIntoViewIfNeeded();
        expect(await img.isVisible()).toBe(true);
        await saveScreenshot(page, `tool-screenshots-${which}-${shot.width}x${shot.height}-${shot.colorScheme}`);
      }
    }
    expect(app.errors).toEqual([]);
  });
});
