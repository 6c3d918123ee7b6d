// First run in Chromium: a daemon with no provider shows the setup card instead of an empty chat, says what
// each choice means for privacy and cost, and a server picked there (its model list read from the server
// itself) answers the next message. Screenshots: e2e/artifacts/first-run*.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { apiCall } from '../test/support/daemon-process.js';
import { messageBox, sendMessage, startAppSession, type AppSession } from './support/app-session.js';
import { saveScreenshot } from './support/chromium.js';

describe('first run: no model provider configured', () => {
  let server: ModelServer;
  let app: AppSession;

  beforeAll(async () => {
    server = await startModelServer({ models: ['tiny-local', 'qwen3'] });
    app = await startAppSession();
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  it('shows the setup card, with one line on privacy and cost per choice, and no usable message box', { timeout: 60_000 }, async () => {
    const { page } = app;
    const card = page.getByRole('region', { name: 'Choose the model Fermix thinks with' });
    await card.waitFor({ timeout: 10_000 });
    const listed = (await apiCall(app.daemon, 'providers.list')).body.result;
    expect(listed.providers).toEqual([]);
    const ollama = card.getByRole('article', { name: 'Local: Ollama on this computer' });
    await ollama.getByText('Private and free:').waitFor();
    // The card says what the daemon found on 127.0.0.1:11434, whichever it is on this machine.
    if (listed.ollama?.found) await ollama.getByText(/Ollama answers/).waitFor();
    else await ollama.getByText(/No Ollama server answers on/).waitFor();
    await card.getByRole('article', { name: 'Hosted: OpenAI or Anthropic' }).getByText('Strong models, paid per token:').waitFor();
    await card.getByRole('article', { name: 'Your own server' }).getByText(/Private when it runs on your machine/).waitFor();
    expect(await messageBox(page).isDisabled()).toBe(true);
    await saveScreenshot(page, 'first-run');
  });

  it('adds a server picked on the card, with its model from the server\'s own list, and answers with it', { timeout: 60_000 }, async () => {
    const { page } = app;
    const own = page.getByRole('article', { name: 'Your own server' });
    await own.getByLabel('Server URL').fill(server.baseUrlOpenAI);
    await own.getByRole('button', { name: 'Load models' }).click();
    const model = own.getByLabel('Model');
    await expect.poll(() => model.locator('option').allInnerTexts()).toEqual(['qwen3', 'tiny-local']);
    await model.selectOption('tiny-local');
    await saveScreenshot(page, 'first-run-server');
    await own.getByRole('button', { name: 'Use this server' }).click();
    await page.getByRole('region', { name: 'Choose the model Fermix thinks with' }).waitFor({ state: 'detached', timeout: 10_000 });
    const config = readFileSync(join(app.home, 'config.toml'), 'utf8');
    expect(config).toContain(`base_url = "${server.baseUrlOpenAI}"`);
    expect(config).toContain('model = "tiny-local"');

    server.setScript([{ text: 'Hello from the server you picked.' }]);
    expect(await messageBox(page).isDisabled()).toBe(false);
    await sendMessage(page, 'hello');
    await page.getByRole('article', { name: 'Fermix' }).filter({ hasText: 'Hello from the server you picked.' }).waitFor({ timeout: 15_000 });
    expect(server.requests.at(-1)?.body.model).toBe('tiny-local');
    await saveScreenshot(page, 'first-run-answered');
    expect(app.errors).toEqual([]);
  });
});
