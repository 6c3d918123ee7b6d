import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../../test/support/daemon-process.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(ROOT, 'e2e', 'artifacts');

/**
 * Debian's Chromium, never a downloaded browser (STACK.md), with the flags that keep it off the network.
 * `extraArgs`: e.g. `--host-resolver-rules` sending a vendor host name to a local fake (OAuth e2e).
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', ...extraArgs],
  });
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
