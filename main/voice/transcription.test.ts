// The transcription client and the voice.* handlers against the local OpenAI-compatible fixture backed by
// pocketsphinx (test/fixtures/stt-server): real HTTP, real multipart, a real recogniser.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type DispatchResult } from '../api/dispatcher.js';
import { configSchema, type FermixConfig } from '../config/schema.js';
import { createVoiceHandlers } from '../daemon/voice-handlers.js';
import { speechWav, startSttServer, type SttServer } from '../../test/fixtures/stt-server/index.js';

type Transcription = FermixConfig['fermix_core']['transcription'];

let stt: SttServer;
let openTheBrowser: Buffer;

beforeAll(async () => {
  stt = await startSttServer({ apiKey: undefined });
  openTheBrowser = readFileSync(await speechWav('open the browser', { rate: 22_050 }));
});
afterAll(() => stt?.close());

function daemonWith(transcription: Partial<Transcription>, options: { keys?: Record<string, string>; timeoutMs?: number } = {}) {
  let config = configSchema.parse({ fermix_core: { transcription } });
  const handlers = createVoiceHandlers({
    config: () => config,
    // The keychain is an injected interface (main/secrets is tested against a real keyring elsewhere).
    keychain: () => ({ get: (name: string) => options.keys?.[name] ?? null }),
    timeoutMs: options.timeoutMs,
  });
  const dispatcher = createDispatcher(handlers);
  return {
    call: (method: string, input: unknown = {}): Promise<DispatchResult> => dispatcher.dispatch(method, input, { transport: 'in-process', trust: 'operator' }),
    reconfigure: (next: Partial<Transcription>) => (config = configSchema.parse({ fermix_core: { transcription: next } })),
  };
}

const wavInput = (bytes: Uint8Array) => ({ audio_base64: Buffer.from(bytes).toString('base64'), mime_type: 'audio/wav' });

function errorOf(result: DispatchResult) {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.result)}`);
  return result.error;
}

describe('voice.transcribe against the pocketsphinx fixture', () => {
  it('returns the recognised text, sending multipart file + model to {base_url}/audio/transcriptions', async () => {
    const daemon = daemonWith({ base_url: stt.baseUrl, model: 'pocketsphinx' });
    const started = performance.now();
    const result = await daemon.call('voice.transcribe', wavInput(openTheBrowser));
    const roundTrip = performance.now() - started;
    expect(result).toMatchObject({ ok: true, result: { text: 'open the browser', bytes: openTheBrowser.length } });
    const request = stt.requests.at(-1)!;
    expect(request).toMatchObject({ path: '/v1/audio/transcriptions', model: 'pocketsphinx', filename: 'audio.wav', mime: 'audio/wav', response_format: 'json', authorization: null, bytes: openTheBrowser.length });
    console.log(`voice.transcribe round trip: ${roundTrip.toFixed(0)} ms for ${(openTheBrowser.length / 1024).toFixed(0)} KB (${request.recognize_ms} ms in sox + pocketsphinx)`);
  });

  it('reports the status of the configuration', async () => {
    const daemon = daemonWith({ base_url: stt.baseUrl, model: 'pocketsphinx' });
    expect(await daemon.call('voice.status')).toEqual({ ok: true, result: { configured: true, base_url: stt.baseUrl, model: 'pocketsphinx', max_file_mb: 20, api_key_ref: null, problem: null } });
    daemon.reconfigure({ base_url: stt.baseUrl });
    expect(await daemon.call('voice.status')).toMatchObject({ ok: true, result: { configured: false, model: null, problem: 'no model is configured' } });
  });

  it('says transcription_not_configured, with the screen and the config keys, when no endpoint is set', async () => {
    const before = stt.requests.length;
    const error = errorOf(await daemonWith({}).call('voice.transcribe', wavInput(openTheBrowser)));
    expect(error.code).toBe('transcription_not_configured');
    expect(error.message).toBe('Voice input is not set up: no transcription server URL is set.');
    expect(error.hint).toContain('Settings → Voice');
    expect(error.hint).toContain('base_url and model under [fermix_core.transcription]');
    expect(stt.requests.length).toBe(before);
  });

  it('refuses a recording over max_file_mb with audio_too_large naming the limit, before calling the endpoint', async () => {
    const before = stt.requests.length;
    const daemon = daemonWith({ base_url: stt.baseUrl, model: 'pocketsphinx', max_file_mb: 1 });
    const big = new Uint8Array(1024 * 1024 + 10);
    big.set(openTheBrowser.subarray(0, 44));
    const error = errorOf(await daemon.call('voice.transcribe', wavInput(big)));
    expect(error).toMatchObject({ code: 'audio_too_large', message: 'The recording is 1.0 MB; transcription takes at most 1 MB.', data: { max_file_mb: 1 } });
    expect(error.hint).toContain('max_file_mb');
    // The default is 20 MB.
    const defaultLimit = errorOf(await daemonWith({ base_url: stt.baseUrl, model: 'pocketsphinx' }).call('voice.transcribe', wavInput(new Uint8Array(20 * 1024 * 1024 + 1))));
    expect(defaultLimit.message).toBe('The recording is 20 MB; transcription takes at most 20 MB.');
    expect(stt.requests.length).toBe(before);
  });

  it('turns an endpoint 500 into transcription_failed with the status and the endpoint\'s message', async () => {
    stt.setFailure({ status: 500, message: 'decoder crashed' });
    try {
      const error = errorOf(await daemonWith({ base_url: stt.baseUrl, model: 'pocketsphinx' }).call('voice.transcribe', wavInput(openTheBrowser)));
      expect(error).toMatchObject({ code: 'transcription_failed', message: 'The transcription endpoint answered 500: decoder crashed.', data: { status: 500 } });
      expect(error.hint).toMatch(/try again/);
    } finally {
      stt.setFailure(null);
    }
  });

  it('passes on the endpoint\'s refusal of a format it cannot read', async () => {
    const webm = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4, 5, 6, 7, 8]);
    const error = errorOf(await daemonWith({ base_url: stt.baseUrl, model: 'pocketsphinx' }).call('voice.transcribe', { audio_base64: Buffer.from(webm).toString('base64'), mime_type: 'audio/webm;codecs=opus' }));
    expect(error.code).toBe('transcription_failed');
    expect(error.message).toContain('answered 400: Unsupported audio format (webm)');
    expect(stt.requests.at(-1)).toMatchObject({ filename: 'audio.webm', mime: 'audio/webm' });
  });

  it('says it could not reach a stopped endpoint, and gives up after the deadline on a silent one', async () => {
    const stopped = await startSttServer();
    const stoppedUrl = stopped.baseUrl;
    await stopped.close();
    const unreachable = errorOf(await daemonWith({ base_url: stoppedUrl, model: 'pocketsphinx' }).call('voice.transcribe', wavInput(openTheBrowser)));
    expect(unreachable.code).toBe('transcription_failed');
    expect(unreachable.message).toMatch(/^Could not reach the transcription endpoint at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\.$/);

    stt.setDelayMs(1500);
    try {
      const started = performance.now();
      const slow = errorOf(await daemonWith({ base_url: stt.baseUrl, model: 'pocketsphinx' }, { timeoutMs: 300 }).call('voice.transcribe', wavInput(openTheBrowser)));
      expect(slow.code).toBe('transcription_failed');
      expect(slow.message).toMatch(/^The transcription endpoint at http:\/\/127\.0\.0\.1:\d+ did not answer within 300 ms\.$/);
      expect(performance.now() - started).toBeLessThan(1400);
    } finally {
      stt.setDelayMs(0);
    }
  });

  it('sends the keychain key as a bearer token, and names the missing entry when there is none', async () => {
    const guarded = await startSttServer({ apiKey: 'sk-voice-test' });
    try {
      const config = { base_url: guarded.baseUrl, model: 'pocketsphinx', api_key_ref: '@keyring:STT_API_KEY' };
      const ok = await daemonWith(config, { keys: { STT_API_KEY: 'sk-voice-test' } }).call('voice.transcribe', wavInput(openTheBrowser));
      expect(ok).toMatchObject({ ok: true, result: { text: 'open the browser' } });
      expect(guarded.requests.at(-1)!.authorization).toBe('Bearer sk-voice-test');

      const missing = errorOf(await daemonWith(config).call('voice.transcribe', wavInput(openTheBrowser)));
      expect(missing).toMatchObject({ code: 'needs_secret' });
      expect(missing.hint).toContain('fermix secrets set STT_API_KEY');

      const wrong = errorOf(await daemonWith(config, { keys: { STT_API_KEY: 'sk-wrong' } }).call('voice.transcribe', wavInput(openTheBrowser)));
      expect(wrong).toMatchObject({ code: 'transcription_failed', data: { status: 401 } });
      expect(wrong.hint).toContain('fermix secrets set STT_API_KEY');
      expect(JSON.stringify(wrong)).not.toContain('sk-wrong');
    } finally {
      await guarded.close();
    }
  });

  it('never sends a key over plain http off this machine, and never echoes a key written into api_key_ref', async () => {
    const remote = daemonWith({ base_url: 'http://192.0.2.10/v1', model: 'whisper-1', api_key_ref: '@keyring:OPENAI_API_KEY' }, { keys: { OPENAI_API_KEY: 'sk-x' } });
    const error = errorOf(await remote.call('voice.transcribe', wavInput(openTheBrowser)));
    expect(error.code).toBe('transcription_not_configured');
    expect(error.message).toContain('use an https:// base_url');
    const pasted = errorOf(await daemonWith({ base_url: stt.baseUrl, model: 'm', api_key_ref: 'sk-proj-abcdef123' }).call('voice.transcribe', wavInput(openTheBrowser)));
    expect(pasted.code).toBe('transcription_not_configured');
    expect(JSON.stringify(pasted)).not.toContain('sk-proj-abcdef123');
  });

  it('refuses input that is not audio or not base64', async () => {
    const daemon = daemonWith({ base_url: stt.baseUrl, model: 'pocketsphinx' });
    expect(errorOf(await daemon.call('voice.transcribe', { audio_base64: 'AAAA', mime_type: 'text/html' })).code).toBe('invalid_input');
    expect(errorOf(await daemon.call('voice.transcribe', { audio_base64: 'not base64!', mime_type: 'audio/wav' })).code).toBe('invalid_input');
    expect(errorOf(await daemon.call('voice.transcribe', { mime_type: 'audio/wav' })).code).toBe('invalid_input');
  });
});
