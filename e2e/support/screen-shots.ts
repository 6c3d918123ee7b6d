import type { Page } from 'playwright-core';
import { saveScreenshot } from './chromium.js';

/** The window sizes a screen is checked at: the shell is responsive from 390 to 1440 px. */
export const SCREEN_SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
  { width: 390, height: 844 },
] as const;

/**
 * Screenshots of the page as it is, at each size in light and dark, named <name>-<w>x<h>-<scheme>.png;
 * the page is put back to `restore` (light) afterwards so the test continues where it was.
 * `afterResize` runs at each size before its shots (e.g. to scroll the element shown into view).
 */
export async function shootSizes(
  page: Page,
  name: string,
  restore: { width: number; height: number },
  sizes: readonly { width: number; height: number }[] = SCREEN_SIZES,
  afterResize?: () => Promise<void>,
): Promise<void> {
  for (const size of sizes) {
    await page.setViewportSize(size);
    await afterResize?.();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await saveScreenshot(page, `${name}-${size.width}x${size.height}-${colorScheme}`);
    }
  }
  await page.setViewportSize(restore);
  await page.emulateMedia({ colorScheme: 'light' });
}
