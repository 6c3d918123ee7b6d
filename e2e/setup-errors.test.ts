// Setup errors sit next to the control that caused them (issue 15): in Chromium against a real daemon with
// no provider, the first-run card's "Your own server" form shows an unreachable server under its Server URL
// field (aria-invalid, aria-describedby) and not at the top or bottom of the card, and clears it on an edit;
// Settings → Voice shows a refused endpoint URL under that field the same way.
// Screenshots: e2e/artifacts/setup-error-*.png.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useAppSession } from './support/app-session.js';
import { shootSizes } from './support/screen-shots.js';

const VIEWPORT = { width: 1280, height: 800 };

/** A port on 127.0.0.1 that nothing listens on (bound, then closed), so a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The field is marked invalid and its description is the error that names the problem. */
async function expectErrorOn(page: Page, field: Locator, text: string): Promise<void> {
  await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 30_000 }).toBe('true');
  const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
  const error = page.locator(`[id="${ids[0]}"]`);
  expect(await error.getAttribute('class')).toBe('field-error');
  expect(await error.innerText()).toContain(text);
}

describe('setup errors next to their control', () => {
  const app = useAppSession({ viewport: VIEWPORT });

  it('the first-run card shows an unreachable server under Server URL, and an edit clears it', { timeout: 60_000 }, async () => {
    const { page } = app;
    const option = page.getByRole('article', { name: 'Your own server' });
    const url = option.getByRole('textbox', { name: 'Server URL' });
    await url.fill(`http://127.0.0.1:${await closedPort()}/v1`);
    await option.getByRole('button', { name: 'Load models' }).click();
    await expectErrorOn(page, url, 'Could not reach http://127.0.0.1:');
    // The card has no error of its own below the options: the one error is the field's.
    expect(await page.locator('.setup-card > .error-notice').count()).toBe(0);
    await shootSizes(page, 'setup-error-card', VIEWPORT, [VIEWPORT, { width: 390, height: 844 }]);
    await url.fill('http://127.0.0.1:1/v1');
    expect(await url.getAttribute('aria-invalid')).toBeNull();
    expect(await option.locator('.field-error').count()).toBe(0);
  });

  it('Settings → Voice shows a refused endpoint URL under that field, and an edit clears it', { timeout: 60_000 }, async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('button', { name: 'Voice', exact: true }).click();
    const form = page.getByRole('form', { name: 'Transcription endpoint' });
    const url = form.getByRole('textbox', { name: 'Endpoint base URL' });
    await url.fill('ftp://127.0.0.1/v1');
    await form.getByRole('button', { name: 'Save voice settings' }).click();
    // A sentence about the field (main/api/validation-messages.ts), not zod's "transcription.base_url: Invalid URL".
    await expectErrorOn(page, url, 'The transcription server URL is not a valid URL — use http(s)://host:port/v1.');
    expect(await form.getByRole('textbox', { name: 'Model' }).getAttribute('aria-invalid')).toBeNull();
    await shootSizes(page, 'setup-error-voice', VIEWPORT, [VIEWPORT]);
    await url.fill('http://127.0.0.1:8080/v1');
    expect(await url.getAttribute('aria-invalid')).toBeNull();
    // The refused requests (the unreachable server's probe, the refused URL) are logged by Chromium as failed
    // resources: expected, and nothing else.
    expect(app.errors.filter((error) => !/Failed to load resource: the server responded with a status of [45]\d\d/.test(error))).toEqual([]);
  });
});
