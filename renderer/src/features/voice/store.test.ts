// The voice store's state machine over the real API client and dispatcher (handlers written here, as in
// app.test.tsx). The microphone is the injected `startRecording` (jsdom has none); Chromium's real one is
// exercised in e2e/voice.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../../main/api/client.js';
import { createDispatcher, type Handlers } from '../../../../main/api/dispatcher.js';
import type { EventEnvelope } from '../../../../main/api/events.js';
import { FermixError } from '../../../../main/core/errors.js';
import { createVoiceStore, DELIVERY_STORAGE_KEY, HOLD_MS, maxSecondsFor, PUSH_TO_TALK_EVENT, SHELL_STREAM, SHORTCUT_REPEAT_GAP_MS, type Transcript } from './store.js';
import type { Recording } from './recorder.js';

function harness(options: { transcribe?: Handlers['voice.transcribe']; delivery?: string } = {}) {
  const uploads: { audio_base64: string; mime_type: string }[] = [];
  const listeners = new Set<(event: EventEnvelope) => void>();
  const handlers: Partial<Handlers> = {
    'voice.status': () => ({ configured: true, base_url: 'http://127.0.0.1:9/v1', model: 'pocketsphinx', max_file_mb: 20, api_key_ref: null, problem: null }),
    'voice.transcribe': options.transcribe ?? ((input) => {
      uploads.push(input);
      return { text: ' open the browser ', elapsed_ms: 5, bytes: 4 };
    }),
  };
  const dispatcher = createDispatcher(handlers);
  const client = createApiClient({
    invoke: (method, input) => dispatcher.dispatch(method, input, { transport: 'in-process', trust: 'operator' }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  const recordings: { stopped: boolean; cancelled: boolean }[] = [];
  const startRecording = async (): Promise<Recording> => {
    const state = { stopped: false, cancelled: false };
    recordings.push(state);
    return {
      mimeType: 'audio/wav',
      level: () => 0.5,
      stop: async () => {
        state.stopped = true;
        return new Blob([new Uint8Array([82, 73, 70, 70])], { type: 'audio/wav' });
      },
      cancel: () => (state.cancelled = true),
    };
  };
  const stored = new Map<string, string>(options.delivery ? [[DELIVERY_STORAGE_KEY, options.delivery]] : []);
  const storage = { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => void stored.set(key, value) };
  const store = createVoiceStore(client, { startRecording, storage, now: () => Date.now() });
  const transcripts: Transcript[] = [];
  let seq = 0;
  const shortcut = () => listeners.forEach((listener) => listener({ stream: SHELL_STREAM, seq: ++seq, type: PUSH_TO_TALK_EVENT, time: new Date().toISOString(), payload: { action: 'toggle' } }));
  return { store, uploads, recordings, transcripts, stored, shortcut, listen: () => store.getState().onTranscript((t) => transcripts.push(t)) };
}

/** Lets promises settle and moves the fake clock. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('voice store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('click-to-talk: a short press starts, the next press stops and sends the transcript', async () => {
    const h = harness();
    h.listen();
    h.store.getState().press('button');
    await pass(100);
    h.store.getState().release('button');
    await pass(10);
    expect(h.store.getState()).toMatchObject({ phase: 'recording', holding: false });
    await pass(2000);
    expect(h.store.getState().level).toBe(0.5);
    h.store.getState().press('button');
    h.store.getState().release('button');
    await pass(10);
    expect(h.store.getState().phase).toBe('idle');
    expect(h.uploads).toEqual([{ audio_base64: 'UklGRg==', mime_type: 'audio/wav' }]);
    expect(h.transcripts).toEqual([{ text: 'open the browser', delivery: 'send' }]);
  });

  it('push-to-talk: a press held for HOLD_MS stops on release', async () => {
    const h = harness();
    h.listen();
    h.store.getState().press('key');
    await pass(HOLD_MS + 1000);
    expect(h.store.getState()).toMatchObject({ phase: 'recording', holding: true, source: 'key' });
    h.store.getState().release('key');
    await pass(10);
    expect(h.recordings[0].stopped).toBe(true);
    expect(h.transcripts).toHaveLength(1);
  });

  it('global shortcut: one press toggles; held (OS key repeat) it stops once the repeats end', async () => {
    const h = harness();
    h.listen();
    h.shortcut();
    await pass(SHORTCUT_REPEAT_GAP_MS + 500);
    expect(h.store.getState().phase).toBe('recording'); // a single press: keeps recording
    h.shortcut();
    await pass(10);
    expect(h.transcripts).toHaveLength(1);

    h.shortcut();
    for (let i = 0; i < 30; i += 1) {
      await pass(50); // auto-repeat every 50 ms while held
      h.shortcut();
    }
    expect(h.store.getState()).toMatchObject({ phase: 'recording', holding: true });
    await pass(SHORTCUT_REPEAT_GAP_MS + 10); // released
    expect(h.store.getState().phase).toBe('idle');
    expect(h.transcripts).toHaveLength(2);
  });

  it('keeps a transcript made while no composer listens, and delivers it to the next listener', async () => {
    const h = harness({ delivery: 'edit' });
    h.shortcut();
    await pass(1000);
    h.shortcut();
    await pass(10);
    expect(h.transcripts).toEqual([]);
    h.listen();
    expect(h.transcripts).toEqual([{ text: 'open the browser', delivery: 'edit' }]);
  });

  it('drops a stray tap shorter than the minimum with a notice, and Escape-style cancel sends nothing', async () => {
    const h = harness();
    h.listen();
    h.store.getState().toggle('button');
    await pass(100);
    h.store.getState().toggle('button');
    await pass(10);
    expect(h.store.getState().notice).toMatch(/too short/);
    expect(h.uploads).toHaveLength(0);
    h.store.getState().toggle('button');
    await pass(1000);
    h.store.getState().cancel();
    await pass(10);
    expect(h.recordings.at(-1)!.cancelled).toBe(true);
    expect(h.uploads).toHaveLength(0);
    expect(h.store.getState().phase).toBe('idle');
  });

  it('shows the daemon\'s error (code, message, hint) and keeps the setting in storage', async () => {
    const h = harness({
      transcribe: () => {
        throw new FermixError({ code: 'transcription_not_configured', message: 'Voice input is not set up: no model is configured.', hint: 'Choose the endpoint and model in Settings → Voice.' });
      },
    });
    h.store.getState().toggle('button');
    await pass(800);
    await h.store.getState().stop();
    await pass(10);
    expect(h.store.getState().error).toEqual({ code: 'transcription_not_configured', message: 'Voice input is not set up: no model is configured.', hint: 'Choose the endpoint and model in Settings → Voice.' });
    h.store.getState().setDelivery('edit');
    expect(h.stored.get(DELIVERY_STORAGE_KEY)).toBe('edit');
  });

  it('stops by itself at the size limit', async () => {
    expect(maxSecondsFor(20)).toBe(655);
    const h = harness();
    h.listen();
    h.store.getState().toggle('button');
    await pass(10);
    h.store.setState({ maxSeconds: 2 });
    await pass(2100);
    expect(h.store.getState().notice).toMatch(/^Recording stopped at the 20 MB limit \(0:02\)\.$/);
    expect(h.transcripts).toHaveLength(1);
  });
});
