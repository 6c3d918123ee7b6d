import type { Browser, Page } from 'playwright-core';
import { saveScreenshot } from './chromium.js';

export const SHOT_SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;

/**
 * Screenshots of one conversation in other window sizes and themes, each in its own browser context
 * signed in through the daemon's URL: the state on screen is the daemon's, not a re-enactment.
 * Names end in -<width>x<height>-<light|dark>.png.
 */
export async function shootConversation(
  browser: Browser,
  url: string,
  conversation: RegExp,
  name: string,
  shots: readonly { width: number; height: number; colorScheme: 'light' | 'dark' }[],
  /** Text that shows the state is on screen, or a wait of its own (e.g. for lazily loaded highlighting). */
  ready: string | ((page: Page) => Promise<unknown>),
): Promise<void> {
  for (const shot of shots) {
    const context = await browser.newContext({ viewport: { width: shot.width, height: shot.height }, colorScheme: shot.colorScheme });
    try {
      const page = await context.newPage();
      await page.goto(url);
      // Under 900 px the conversation list is a drawer.
      if (shot.width < 900) await page.getByRole('button', { name: 'Show conversations' }).click();
      await page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: conversation }).click();
      await (typeof ready === 'string' ? page.getByText(ready).first().waitFor({ timeout: 15_000 }) : ready(page));
      await saveScreenshot(page, `${name}-${shot.width}x${shot.height}-${shot.colorScheme}`);
    } finally {
      await context.close();
    }
  }
}
