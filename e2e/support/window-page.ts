import type { Browser, BrowserContext, Page } from 'playwright-core';

export interface WindowPage {
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors; a spec expects none (or only the ones it names). */
  errors: string[];
}

/**
 * The window a daemon serves, opened in a new browser context and signed in through its URL, with page
 * and console errors collected — for specs that start the daemon in-process (startDaemon with pluginNet).
 */
export async function openWindow(browser: Browser, url: string, options: { viewport?: { width: number; height: number }; ignoreHTTPSErrors?: boolean } = {}): Promise<WindowPage> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, colorScheme: 'light', ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  return { context, page, errors };
}
