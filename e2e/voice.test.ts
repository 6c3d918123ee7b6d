// Voice input end to end: Debian Chromium's fake microphone plays an espeak-ng WAV, the window records it with
// MediaRecorder (re-encoded to 16 kHz WAV in the page), sends it through voice.transcribe to a real daemon,
// which posts it to a local OpenAI-compatible endpoint backed by pocketsphinx with a JSGF grammar; the
// recognised text becomes an operator message that the scripted model answers. Before any recording the button
// says what it needs (not set up → Settings → Voice; no microphone); a failed transcription keeps the recording
// for Retry; Escape closes the message. Screenshots: e2e/artifacts/voice-*.png (1280×800 and 800×600, light and dark).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { lastUserText, startModelServer, type ModelServer } from '../test/fixtures/model-server/index.js';
import { speechWav, startSttServer, type SttServer } from '../test/fixtures/stt-server/index.js';
import { apiCall, startDaemonProcess, tempHome, waitFor, type DaemonProcess } from '../test/support/daemon-process.js';
import { requireRendererBuild } from './support/build-output.js';
import { startAppSession, providerConfig, type AppSession } from './support/app-session.js';
import { ARTIFACTS, CHROMIUM, saveScreenshot } from './support/chromium.js';

const SIZES = [{ width: 1280, height: 800 }, { width: 800, height: 600 }] as const;

/** The page at both sizes, light and dark; then back to the given size, light. */
async function shootAll(page: Page, name: string, back: { width: number; height: number }): Promise<void> {
  for (const size of SIZES) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme });
      await saveScreenshot(page, `${name}-${size.width}x${size.height}-${colorScheme}`);
    }
  }
  await page.setViewportSize(back);
  await page.emulateMedia({ colorScheme: 'light' });
}

const PHRASE = 'open the browser';
/** The fake microphone loops the file: speech, then silence long enough to keep repeats apart. */
const SPEECH_PAD_BEFORE_S = 0.4;
const SPEECH_PAD_AFTER_S = 2.2;
const RECORD_MS = 3_600;

describe('voice input in Chromium, through the daemon, to a pocketsphinx endpoint', () => {
  const home = tempHome('fermix-e2e-voice-');
  let model: ModelServer;
  let stt: SttServer;
  let daemon: DaemonProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const configure = (transcription: string) => writeFileSync(join(home, 'config.toml'), [
    '[providers.local]', 'type = "openai-compatible"', `base_url = "${model.baseUrlOpenAI}"`, 'model = "qwen3"', 'primary = true', '',
    transcription,
  ].join('\n'));
  const voiceButton = () => page.getByRole('button', { name: /voice input/ });
  const voiceAlert = () => page.getByRole('alert').filter({ has: page.locator('.voice-error-title') });

  /** Every user message the daemon stored, across conversations. */
  async function userMessages(): Promise<string[]> {
    const { conversations } = (await apiCall(daemon, 'conversations.list')).body.result as { conversations: { id: string }[] };
    const texts: string[] = [];
    for (const conversation of conversations) {
      const { messages } = (await apiCall(daemon, 'conversations.get', { id: conversation.id })).body.result as { messages: { role: string; content: string }[] };
      texts.push(...messages.filter((message) => message.role === 'user').map((message) => message.content));
    }
    return texts;
  }

  async function composerText(): Promise<string> {
    // A string, not a function: this file is typechecked without the DOM library.
    return page.evaluate<string>("[...document.querySelectorAll('textarea, input[type=\"text\"], input:not([type])')].map((field) => field.value).join('\\n')");
  }

  beforeAll(async () => {
    requireRendererBuild();
    model = await startModelServer();
    model.setScript((request) => ({ text: `You said: ${lastUserText(request)}` }));
    stt = await startSttServer();
    const wav = await speechWav(PHRASE, { rate: 48_000, padBeforeS: SPEECH_PAD_BEFORE_S, padAfterS: SPEECH_PAD_AFTER_S, out: join(home, 'speech.wav') });
    configure('');
    daemon = await startDaemonProcess(home);
    const served = await apiCall(daemon, 'voice.status');
    if (served.body.error) {
      throw new Error(`The daemon does not serve voice.status (${served.body.error.code}): add ...createVoiceHandlers(...) to main/daemon/compose.ts (docs/decisions/0007-voice.md, "Wiring").`);
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
        '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`,
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1100, height: 720 }, colorScheme: 'light' });
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) pageErrors.push(`console: ${message.text()}`);
    });
    await page.goto(daemon.url);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByRole('button', { name: 'New conversation' }).first().click();
    try {
      await voiceButton().waitFor({ timeout: 10_000 });
    } catch {
      throw new Error('The window shows no voice button ("Start voice input"). Wire the voice feature: createVoiceStore in renderer/src/app/app-model.ts, <VoiceProvider> in main.tsx, and <VoiceButton> in the chat composer (docs/decisions/0007-voice.md, "Wiring").');
    }
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (daemon && daemon.child.exitCode === null) {
      process.kill(daemon.pid, 'SIGTERM');
      await daemon.exited;
    }
    await stt?.close();
    await model?.close();
  });

  it('before any recording the mic says voice is not set up; the shortcut says so too; a click opens Settings → Voice, where it is set up', async () => {
    const setUp = page.getByRole('button', { name: 'Set up voice input' });
    await setUp.waitFor();
    expect(await setUp.getAttribute('title')).toContain('Voice input is not set up');
    await shootAll(page, 'voice-not-set-up', { width: 1100, height: 720 });
    // The push-to-talk key does not record either: "not set up" comes before any microphone question.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+Shift+Space');
    const alert = voiceAlert();
    await alert.waitFor();
    expect(await alert.locator('.voice-error-title').textContent()).toBe('Voice input is not set up');
    expect(await page.getByRole('button', { name: 'Stop voice input' }).count()).toBe(0);
    await alert.getByRole('button', { name: 'Open Settings → Voice' }).click();
    await page.getByRole('heading', { name: 'Voice', level: 2 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'Set up voice input' }).click();
    await page.getByRole('heading', { name: 'Voice', level: 2 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('button', { name: 'Voice' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('Voice input is not set up:', { exact: false }).first().waitFor();
    await page.getByLabel('Endpoint base URL').fill(stt.baseUrl);
    await page.getByLabel('Model', { exact: true }).fill('pocketsphinx');
    await page.getByRole('button', { name: 'Save voice settings' }).click();
    await page.getByText(`Transcribed by pocketsphinx at ${stt.baseUrl}`, { exact: false }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'Start voice input' }).waitFor();
    expect(stt.requests.length).toBe(0);
  });

  it('push-to-talk: holding the button records with a moving level meter; the recognised text is sent as a message and answered', async () => {
    configure(`[fermix_core.transcription]\nbase_url = "${stt.baseUrl}"\nmodel = "pocketsphinx"\n`);
    const box = (await voiceButton().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const pressedAt = Date.now();
    await page.mouse.down();
    const meter = page.getByRole('meter', { name: 'Microphone level' });
    await meter.waitFor();
    let loudest = 0;
    let pictured = false;
    while (Date.now() - pressedAt < RECORD_MS - 150) {
      const now = Number(await meter.getAttribute('aria-valuenow'));
      loudest = Math.max(loudest, now);
      if (!pictured && now > 45 && Date.now() - pressedAt > 800) {
        await saveScreenshot(page, 'voice-recording');
        pictured = true;
      }
      await page.waitForTimeout(60);
    }
    if (!pictured) await saveScreenshot(page, 'voice-recording');
    await page.waitForTimeout(Math.max(0, RECORD_MS - (Date.now() - pressedAt)));
    const released = Date.now();
    await page.mouse.up();
    expect(loudest, 'the level meter should move while the fake microphone speaks').toBeGreaterThan(30);

    await waitFor(async () => (await userMessages()).some((text) => text.includes(PHRASE)), 20_000, `a user message with "${PHRASE}"`);
    const roundTrip = Date.now() - released;
    const request = stt.requests.at(-1)!;
    expect(request).toMatchObject({ path: '/v1/audio/transcriptions', model: 'pocketsphinx', container: 'wav', mime: 'audio/wav', status: 200 });
    expect(request.text).toContain(PHRASE);
    console.log(`voice e2e: release → request at the endpoint ${request.received_at - released} ms (stop, WAV encode, upload through the daemon); recogniser ${request.recognize_ms} ms; release → operator message stored ≤ ${roundTrip} ms; ${(request.bytes / 1024).toFixed(0)} KB WAV; heard "${request.text}"`);
    // The message and the model's answer show in the thread.
    await page.getByText(`You said: ${(await userMessages()).find((text) => text.includes(PHRASE))}`).first().waitFor({ timeout: 15_000 });
    await saveScreenshot(page, 'voice-sent');
  });

  it('click-to-talk from the keyboard, with "edit first": Enter starts, Enter stops, the text lands in the message box unsent', async () => {
    // The choice is made in Settings (VoiceSettings) and kept in localStorage across a reload.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('button', { name: 'Voice' }).click();
    const section = page.getByRole('region', { name: 'Voice input' });
    await section.getByRole('radio', { name: /Put the text in the message box/ }).check();
    await page.getByText(`Transcribed by pocketsphinx at ${stt.baseUrl}`, { exact: false }).waitFor();
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: join(ARTIFACTS, 'voice-settings.png') });
    expect(await page.evaluate<string | null>("localStorage.getItem('fermix.voice.delivery')")).toBe('edit');
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('list', { name: 'Conversations' }).getByRole('button').first().click();
    const before = (await userMessages()).length;
    const requestsBefore = stt.requests.length;
    await voiceButton().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Stop voice input' }).waitFor();
    expect(await page.getByRole('button', { name: 'Stop voice input' }).getAttribute('aria-pressed')).toBe('true');
    await page.waitForTimeout(RECORD_MS);
    await page.keyboard.press('Enter');
    await waitFor(async () => (await composerText()).includes(PHRASE), 20_000, 'the transcript in the message box');
    expect(stt.requests.length).toBe(requestsBefore + 1);
    await saveScreenshot(page, 'voice-edit');
    expect((await userMessages()).length).toBe(before);
  });

  it('holding Ctrl+Shift+Space records too; a failed transcription shows why, keeps the recording, and Retry sends it; Escape closes the message', async () => {
    expect(await voiceButton().getAttribute('title')).toContain('Shortcut: Ctrl+Shift+Space');
    await page.getByRole('textbox', { name: 'Message' }).fill('');
    const holdShortcut = async () => {
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.down('Control');
      await page.keyboard.down('Shift');
      await page.keyboard.down('Space');
      await page.getByRole('button', { name: 'Stop voice input' }).waitFor();
      await page.waitForTimeout(RECORD_MS);
      await page.keyboard.up('Space');
      await page.keyboard.up('Shift');
      await page.keyboard.up('Control');
    };
    stt.setFailure({ status: 500, message: 'decoder crashed' });
    const alert = voiceAlert();
    try {
      await holdShortcut();
      await alert.waitFor({ timeout: 15_000 });
      await expect.poll(() => alert.textContent()).toContain('Transcription failed');
      expect(await alert.textContent()).toContain('answered 500: decoder crashed');
      expect(await alert.textContent()).toContain('The recording is kept');
      await shootAll(page, 'voice-failed', { width: 1100, height: 720 });
    } finally {
      stt.setFailure(null);
    }
    const requestsBefore = stt.requests.length;
    await alert.getByRole('button', { name: 'Retry' }).click();
    // The same recording, not a new one: the words arrive without speaking again.
    await waitFor(async () => (await composerText()).includes(PHRASE), 20_000, 'the retried transcript in the message box');
    expect(stt.requests.length).toBe(requestsBefore + 1);
    await alert.waitFor({ state: 'detached' });

    stt.setFailure({ status: 503, message: 'busy' });
    try {
      await holdShortcut();
      await alert.waitFor({ timeout: 15_000 });
    } finally {
      stt.setFailure(null);
    }
    await page.keyboard.press('Escape');
    await alert.waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});

describe('voice input in a Chromium without a microphone', () => {
  let model: ModelServer;
  let app: AppSession;

  beforeAll(async () => {
    model = await startModelServer();
    app = await startAppSession({ config: providerConfig(model.baseUrlOpenAI), viewport: { width: 1100, height: 720 } });
    await app.page.getByRole('button', { name: 'New conversation' }).first().click();
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await model?.close();
  });

  it('says "not set up" while it is not, and "No microphone" once it is set up', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Set up voice input' }).waitFor();
    writeFileSync(join(app.home, 'config.toml'), providerConfig(model.baseUrlOpenAI, '[fermix_core.transcription]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "whisper-1"'));
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    const button = page.getByRole('button', { name: 'Start voice input (no microphone found)' });
    await button.waitFor();
    expect(await button.getAttribute('title')).toContain('No microphone found');
    await button.click();
    const alert = page.getByRole('alert').filter({ has: page.locator('.voice-error-title') });
    await alert.waitFor();
    expect(await alert.locator('.voice-error-title').textContent()).toBe('No microphone');
    await shootAll(page, 'voice-no-microphone', { width: 1100, height: 720 });
    await page.keyboard.press('Escape');
    await alert.waitFor({ state: 'detached' });
    expect(app.errors.filter((line) => !/Failed to load resource/.test(line))).toEqual([]);
  });
});
