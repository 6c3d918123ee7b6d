// Attachments in Chromium against a real daemon and the scripted model server: a text file and a PNG
// picked with the file input are uploaded, sent with the message, RECEIVED by the model (the image as an
// image part, the text inlined), shown under the message (also after a reload), and a file the agent
// sends back (send_attachment) shows inline and downloads. Screenshots: e2e/artifacts/chat-attachments*.png.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesOf, startModelServer, toolRoundTrip, type ModelServer, type RecordedRequest } from '../test/fixtures/model-server/index.js';
import { MAX_ATTACHMENT_BYTES } from '../main/api/attachment-rules.js';
import { apiCall, ROOT } from '../test/support/daemon-process.js';
import { messageBox, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

const LOGO = readFileSync(join(ROOT, 'resources', 'icon.png'));
const NOTES = 'Shopping list:\n- oat milk\n- espresso beans\n';

/** A local model whose name says it has vision (llava), so the daemon sends images to it. */
function visionConfig(baseUrl: string): string {
  return `[providers.local]\ntype = "openai-compatible"\nbase_url = "${baseUrl}"\nmodel = "llava-test"\nprimary = true\n`;
}

/** The decoded width of an <img>, 0 until it has loaded (a broken image stays 0). */
const loadedWidth = (image: Locator) => image.evaluate((element) => {
  const img = element as unknown as { complete: boolean; naturalWidth: number };
  return img.complete ? img.naturalWidth : 0;
});

const lastUserContent = (request: RecordedRequest): any[] => {
  const content = messagesOf(request).filter((message) => message.role === 'user').at(-1)?.content;
  if (!Array.isArray(content)) throw new Error(`the last user message has no parts: ${JSON.stringify(content)?.slice(0, 200)}`);
  return content;
};

describe('chat attachments in Chromium', () => {
  let server: ModelServer;
  let app: AppSession;

  beforeAll(async () => {
    server = await startModelServer();
    app = await startAppSession({ config: visionConfig(server.baseUrlOpenAI) });
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('sends a text file and a PNG with a message; the model receives the image part and the text', { timeout: 60_000 }, async () => {
    const { page } = app;
    server.setScript([{ text: 'A purple logo, and a list with oat milk and espresso beans.', chunks: 3 }]);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('attach-input').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTES) },
      { name: 'fermix-logo.png', mimeType: 'image/png', buffer: LOGO },
    ]);
    const pending = page.getByRole('list', { name: 'Files to send' });
    await pending.getByRole('button', { name: 'Remove notes.txt' }).waitFor();
    await pending.getByRole('button', { name: 'Remove fermix-logo.png' }).waitFor();
    expect(await pending.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/notes\.txt\s*43 B/), expect.stringMatching(/fermix-logo\.png\s*288 KB/)]);
    await messageBox(page).fill('What is in these files?');
    await saveScreenshot(page, 'chat-attachments-pending');
    const before = server.requests.length;
    await messageBox(page).press('Enter');

    const message = page.getByRole('article', { name: 'Your message' });
    const sent = message.getByRole('list', { name: 'Attached files' });
    await sent.getByRole('listitem', { name: 'notes.txt, 43 B' }).waitFor();
    await sent.getByRole('listitem', { name: 'fermix-logo.png, 288 KB' }).waitFor();
    // Once sent, each file has its id and can be downloaded again.
    await sent.getByRole('button', { name: 'Download notes.txt' }).waitFor();
    await page.getByRole('article', { name: 'Fermix' }).getByText('espresso beans').waitFor({ timeout: 15_000 });
    expect(await pending.count()).toBe(0);

    // What the model server RECEIVED: the PNG as an image part (data URL of the exact bytes), the text inlined.
    const request = server.requests.slice(before).find((each) => each.vendor === 'openai')!;
    const parts = lastUserContent(request);
    const image = parts.find((part) => part.type === 'image_url');
    expect(image?.image_url.url).toBe(`data:image/png;base64,${LOGO.toString('base64')}`);
    const texts = parts.filter((part) => part.type === 'text').map((part) => part.text as string);
    expect(texts.some((text) => text.includes('<attached_file name="notes.txt" type="text/plain" size="43 B">') && text.includes('- espresso beans'))).toBe(true);
    expect(texts.at(-1)).toBe('What is in these files?');

    // The thumbnail is the real image, loaded (not a broken icon).
    const thumbnail = sent.getByRole('img', { name: 'fermix-logo.png' });
    await expect.poll(() => loadedWidth(thumbnail)).toBe(1024);
    await page.getByRole('status').filter({ hasText: 'Idle' }).waitFor();
    await saveScreenshot(page, 'chat-attachments');
    expect(app.errors).toEqual([]);
  });

  it('shows an image the agent sends inline, downloads it, and keeps the sent files after a reload', { timeout: 60_000 }, async () => {
    const { page } = app;
    copyFileSync(join(ROOT, 'resources', 'icon.png'), join(app.home, 'workspace', 'chart.png'));
    server.setScript(toolRoundTrip([{ name: 'send_attachment', arguments: { path: 'chart.png', caption: 'The chart you asked for' } }], 'Sent the chart.'));
    await sendMessage(page, 'Send me the chart');
    const card = page.getByRole('region', { name: 'Attachment chart.png' });
    await card.waitFor({ timeout: 15_000 });
    const inline = card.getByRole('img', { name: 'chart.png' });
    await expect.poll(() => loadedWidth(inline), { timeout: 10_000 }).toBe(1024);
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download chart.png' }).click()]);
    expect(download.suggestedFilename()).toBe('chart.png');
    expect(readFileSync((await download.path())!).equals(LOGO)).toBe(true);
    await page.getByRole('status').filter({ hasText: 'Idle' }).waitFor();

    // chat.history brings the person's files back under their message.
    await page.reload();
    const first = page.getByRole('article', { name: 'Your message' }).filter({ hasText: 'What is in these files?' });
    await first.getByRole('listitem', { name: 'notes.txt, 43 B' }).waitFor({ timeout: 10_000 });
    const reloaded = first.getByRole('img', { name: 'fermix-logo.png' });
    await expect.poll(() => loadedWidth(reloaded), { timeout: 10_000 }).toBe(1024);
    await saveScreenshot(page, 'chat-attachments-reloaded');
    expect(app.errors).toEqual([]);
  });

  it('reads well in the dark theme', { timeout: 60_000 }, async () => {
    const dark = await app.browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: 'dark' });
    try {
      const night = await dark.newPage();
      await night.goto(app.daemon.url);
      await night.getByRole('list', { name: 'Conversations' }).getByRole('button').first().click();
      await night.getByRole('region', { name: 'Attachment chart.png' }).getByRole('img', { name: 'chart.png' }).waitFor({ timeout: 10_000 });
      await night.getByTestId('attach-input').setInputFiles([{ name: 'draft.md', mimeType: 'text/markdown', buffer: Buffer.from('# Draft\n') }]);
      await night.getByRole('button', { name: 'Remove draft.md' }).waitFor();
      await saveScreenshot(night, 'chat-attachments-dark');
    } finally {
      await dark.close();
    }
  });

  it('takes a file of exactly 20 MB over HTTP (inside the 32 MB body cap) and refuses one byte more by name', { timeout: 60_000 }, async () => {
    const conversation = (await apiCall(app.daemon, 'conversations.create', { title: 'Big files' })).body.result.id;
    const upload = (size: number) => apiCall(app.daemon, 'attachments.upload', { conversation_id: conversation, filename: 'big.bin', base64: Buffer.alloc(size, 7).toString('base64') });
    const fits = await upload(MAX_ATTACHMENT_BYTES);
    expect(fits.body.result).toMatchObject({ filename: 'big.bin', bytes: MAX_ATTACHMENT_BYTES, mime_type: 'application/octet-stream' });
    const over = await upload(MAX_ATTACHMENT_BYTES + 1);
    expect(over.body.error).toMatchObject({ code: 'attachment_too_large', message: '"big.bin" is 20,971,521 bytes; a chat attachment can be at most 20 MB.' });
    expect((await apiCall(app.daemon, 'attachments.list', { conversation_id: conversation })).body.result.attachments).toHaveLength(1);
  });
});
