// Chat actions in Chromium against a real daemon and the scripted model server (issue item 5): a thinking
// row from send to the first token, the streaming cursor inline, footers only with what is known plus the
// conversation's total, copy, edit-and-resend and regenerate (chat.fork: a copy of the conversation up to
// that message; the original stays), continue after a stop, retry after a failed send, and the model picker.
// Screenshots: e2e/artifacts/chat-actions-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserText, startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall } from '../test/support/daemon-process.js';
import { messageBox, providerConfig, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';
import { shootConversation } from './support/chat-shots.js';

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const answers = (page: Page) => page.getByRole('article', { name: 'Fermix' });

describe('chat actions', () => {
  let server: ModelServer;
  let app: AppSession;
  let hotelAsked = 0;

  beforeAll(async () => {
    server = await startModelServer({ models: ['m', 'm-large'] });
    server.setScript((request) => {
      const said = lastUserText(request);
      if (said === 'Plan a trip') return { text: 'Pack light and go by train.', chunks: 4, delayMs: 400, usage: { inputTokens: 321, outputTokens: 45 } };
      if (said === 'And the hotel?') return { text: (hotelAsked += 1) === 1 ? 'Book near the station.' : 'Try the old town instead.', usage: { inputTokens: 100, outputTokens: 20 } };
      if (said === 'Plan a short trip') return { text: 'A weekend by the sea.' };
      if (said === 'Tell a long story') return { text: Array.from({ length: 40 }, (_, index) => `s${index}`).join(' '), chunks: 40, delayMs: 200 };
      if (said === 'Continue from where you stopped.') return { text: 'And that is the end of the story.' };
      return { text: `Answered by ${request.body?.model}: ${said}` };
    });
    app = await startAppSession({ config: providerConfig(server.baseUrlOpenAI), viewport: { width: 1280, height: 800 } });
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('thinks until the first token, streams with an inline cursor, and shows tokens only when known with a total', { timeout: 60_000 }, async () => {
    const { page } = app;
    await sendMessage(page, '/new Trip');
    await heading(page).filter({ hasText: 'Trip' }).waitFor();
    await sendMessage(page, 'Plan a trip');
    await page.getByRole('status', { name: 'Fermix is thinking' }).waitFor({ timeout: 10_000 });
    const streaming = page.locator('article.message-assistant[aria-busy="true"]');
    await streaming.waitFor({ timeout: 10_000 });
    expect(await page.getByRole('status', { name: 'Fermix is thinking' }).count()).toBe(0);
    // The cursor is drawn after the last word of the last paragraph, not as a block of its own.
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('.message-streaming .markdown > :last-child'), '::after').display")).toBe('inline-block');
    expect(await page.locator('.caret').count()).toBe(0);
    await answers(page).filter({ hasText: 'Pack light and go by train.' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Turn usage').filter({ hasText: '321 in · 45 out tokens' }).waitFor();
    // A local model has no price: no "$0", no "cost unknown"; one turn has no conversation total yet.
    expect(await page.getByLabel('Turn usage').innerText()).not.toMatch(/\$|cost unknown/);
    expect(await page.getByLabel('Conversation total').count()).toBe(0);

    await sendMessage(page, 'And the hotel?');
    await answers(page).filter({ hasText: 'Book near the station.' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Conversation total').filter({ hasText: 'This conversation: 421 in · 65 out tokens' }).waitFor();
    expect(await page.getByLabel('Conversation total').count()).toBe(1);
    await saveScreenshot(page, 'chat-actions-1280x800-light');
    await shootConversation(app.browser, app.daemon.url, /^Trip/, 'chat-actions', [{ width: 1280, height: 800, colorScheme: 'dark' }, { width: 800, height: 600, colorScheme: 'light' }], 'This conversation:');
    expect(app.errors).toEqual([]);
  });

  it('copies an answer, regenerates the last one in a copy of the conversation, and edits a message into another copy', { timeout: 60_000 }, async () => {
    const { page } = app;
    const original = (await apiCall(app.daemon, 'conversations.list')).body.result.conversations.find((row: { title: string }) => row.title === 'Trip');
    const before = (await apiCall(app.daemon, 'chat.history', { conversation_id: original.id })).body.result.messages.length;

    const last = answers(page).filter({ hasText: 'Book near the station.' });
    await last.getByRole('button', { name: 'Copy' }).click();
    await last.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe('Book near the station.');
    // Every finished answer can be asked again (in a copy up to its message); one Regenerate per answer.
    expect(await page.getByRole('button', { name: 'Regenerate' }).count()).toBe(2);

    await last.getByRole('button', { name: 'Regenerate' }).click();
    await heading(page).filter({ hasText: 'Trip (retry)' }).waitFor({ timeout: 10_000 });
    await answers(page).filter({ hasText: 'Try the old town instead.' }).waitFor({ timeout: 15_000 });
    // The copy has the earlier exchange and the message asked again; its old answer is not in it.
    await answers(page).filter({ hasText: 'Pack light and go by train.' }).waitFor();
    expect(await answers(page).filter({ hasText: 'Book near the station.' }).count()).toBe(0);

    // Messages copied into a fork belong to no turn of it: edits are made where they were sent.
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(1);
    await page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /^Trip(?! \()/ }).click();
    await heading(page).filter({ hasText: /^Trip$/ }).waitFor();
    const first = page.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Plan a trip' });
    await first.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'Edited message' });
    await editor.fill('Plan a short trip');
    await saveScreenshot(page, 'chat-actions-editing-1280x800-light');
    await editor.press('Enter');
    await heading(page).filter({ hasText: '(edited)' }).waitFor({ timeout: 10_000 });
    await answers(page).filter({ hasText: 'A weekend by the sea.' }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('article', { name: 'Your message' }).allInnerTexts()).toHaveLength(1);
    expect(server.requests.filter((request) => request.vendor === 'openai').map(lastUserText)).toContain('Plan a short trip');

    // The original conversation is as it was.
    expect((await apiCall(app.daemon, 'chat.history', { conversation_id: original.id })).body.result.messages.length).toBe(before);
    const titles = (await apiCall(app.daemon, 'conversations.list')).body.result.conversations.map((row: { title: string }) => row.title);
    expect(titles).toEqual(expect.arrayContaining(['Trip', 'Trip (retry)', 'Trip (edited)']));
    expect(app.errors).toEqual([]);
  });

  it('continues after a stop, retries a failed send, and answers with the model picked in the composer (small, dark)', { timeout: 60_000 }, async () => {
    const night = await app.browser.newContext({ viewport: { width: 800, height: 600 }, colorScheme: 'dark' });
    try {
      const page = await night.newPage();
      const errors: string[] = [];
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      await page.goto(app.daemon.url);
      await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
      await sendMessage(page, '/new Story');
      await heading(page).filter({ hasText: 'Story' }).waitFor();
      await sendMessage(page, 'Tell a long story');
      await page.locator('article.message-assistant[aria-busy="true"]').getByText(/s2/).waitFor({ timeout: 10_000 });
      await messageBox(page).press('Escape');
      const footer = page.getByLabel('Turn usage').filter({ hasText: 'Stopped' });
      await footer.waitFor({ timeout: 10_000 });
      await footer.getByRole('button', { name: 'Continue' }).click();
      await answers(page).filter({ hasText: 'And that is the end of the story.' }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('button', { name: 'Continue' }).count()).toBe(0);

      // The send itself fails (the request never reaches the daemon): the message says so and offers Retry.
      await page.route('**/api/chat.send', (route) => route.abort('connectionfailed'));
      await sendMessage(page, 'Are you there?');
      const failed = page.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Are you there?' });
      await failed.getByRole('button', { name: 'Retry sending' }).waitFor({ timeout: 10_000 });
      await saveScreenshot(page, 'chat-actions-failed-800x600-dark');
      await page.unroute('**/api/chat.send');
      await failed.getByRole('button', { name: 'Retry sending' }).click();
      await answers(page).filter({ hasText: 'Answered by m: Are you there?' }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('button', { name: 'Retry sending' }).count()).toBe(0);

      // The picker lists the provider's models from its own API; a pick answers the next message.
      const picker = page.getByRole('combobox', { name: 'Model' });
      await expect.poll(() => picker.locator('option').allInnerTexts()).toEqual(['m', 'm-large']);
      await picker.selectOption({ label: 'm-large' });
      await expect.poll(async () => (await apiCall(app.daemon, 'providers.list')).body.result.providers[0].model).toBe('m-large');
      await sendMessage(page, 'Which model?');
      await answers(page).filter({ hasText: 'Answered by m-large: Which model?' }).waitFor({ timeout: 15_000 });
      await saveScreenshot(page, 'chat-actions-800x600-dark');
      // The aborted request is the one console error a failed send leaves; nothing else went wrong.
      expect(errors.filter((text) => !text.includes('net::ERR_'))).toEqual([]);
    } finally {
      await night.close();
    }
  });
});
