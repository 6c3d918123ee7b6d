/**
 * The voice feature's store: microphone → recording → voice.transcribe → a transcript for the composer.
 *
 * Three ways to talk, one state machine:
 * - click-to-talk: a short press (< HOLD_MS) starts, the next press stops;
 * - push-to-talk: a press held for HOLD_MS or longer stops on release (the button, or a key while the
 *   window is focused);
 * - the desktop's global shortcut (main/shell/shortcuts.ts) reports presses only, no release: one press
 *   toggles; while the key is held the OS repeats presses, and when they stop the key was released,
 *   so holding the shortcut is push-to-talk there too.
 * Transcripts go to whoever listens (the composer's VoiceButton), or wait until someone does.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import type { EventEnvelope } from '../../../../main/api/events.js';
import { FermixError, type WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { MicrophoneError, microphoneError, startMicrophoneRecording, type Recording, type StartRecording } from './recorder.js';
import { toBase64, toUploadAudio, WAV_BYTES_PER_SECOND, WAV_HEADER_BYTES } from './wav.js';

export type VoiceStatus = OutputOf<'voice.status'>;
export type VoicePhase = 'idle' | 'starting' | 'recording' | 'transcribing';
export type VoiceSource = 'button' | 'key' | 'shortcut';
export type VoiceDelivery = 'send' | 'edit';
export interface Transcript {
  text: string;
  delivery: VoiceDelivery;
}

/** A press at least this long is push-to-talk (stop on release); shorter is click-to-talk. */
export const HOLD_MS = 350;
/** Global-shortcut presses closer than this are the OS repeating a held key (X11's default delay is 660 ms). */
export const SHORTCUT_REPEAT_GAP_MS = 800;
/** Shorter recordings are dropped (a stray tap), with a notice. */
export const MIN_RECORDING_MS = 300;
/** The shell's stream and event (main/shell/shortcuts.ts; the renderer may not import main/shell). */
export const SHELL_STREAM = 'shell';
export const PUSH_TO_TALK_EVENT = 'voice.push_to_talk';
export const DELIVERY_STORAGE_KEY = 'fermix.voice.delivery';
const DEFAULT_MAX_FILE_MB = 20;
const TICK_MS = 50;

export interface VoiceState {
  phase: VoicePhase;
  source: VoiceSource | null;
  /** True while the press that started the recording is held (push-to-talk: releasing stops). */
  holding: boolean;
  /** 0..1, for the level meter. */
  level: number;
  elapsedMs: number;
  /** Seconds the recording may last before it reaches max_file_mb (as WAV). */
  maxSeconds: number;
  error: WireError | null;
  notice: string | null;
  delivery: VoiceDelivery;
  status: VoiceStatus | null;
  /** The last voice.transcribe round trip (upload + endpoint), for the status line and benchmarks. */
  lastRoundTripMs: number | null;
  /** A recording whose transcription failed, kept so it can be sent again (retry) instead of re-spoken. */
  kept: Blob | null;
  /** Whether the system lists a microphone: 'unknown' until asked (or where the browser cannot tell). */
  microphone: 'unknown' | 'present' | 'missing';
  press(source: VoiceSource): void;
  release(source: VoiceSource): void;
  shortcutPressed(): void;
  /** Click-to-talk from assistive technology or Enter: start, or stop. */
  toggle(source: VoiceSource): void;
  stop(): Promise<void>;
  cancel(): void;
  setDelivery(delivery: VoiceDelivery): void;
  refreshStatus(): Promise<void>;
  /** Asks the browser whether any audio input exists (no permission prompt: enumerateDevices only). */
  checkMicrophone(): Promise<void>;
  /** Sends the kept recording to voice.transcribe again. */
  retry(): Promise<void>;
  /** Closes the message, and drops a kept recording with it. */
  dismiss(): void;
  /** The composer listens here; a transcript made while nobody listens waits for the next listener. */
  onTranscript(listener: (transcript: Transcript) => void): () => void;
  dispose(): void;
}

export interface VoiceStoreOptions {
  startRecording?: StartRecording;
  /** Lists audio inputs; defaults to navigator.mediaDevices.enumerateDevices. */
  listInputs?: () => Promise<number>;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  now?: () => number;
}

function readDelivery(storage: VoiceStoreOptions['storage']): VoiceDelivery {
  try {
    return storage?.getItem(DELIVERY_STORAGE_KEY) === 'edit' ? 'edit' : 'send';
  } catch {
    return 'send';
  }
}

function toWire(error: unknown): WireError {
  if (error instanceof FermixError) return error.toWire();
  if (error instanceof MicrophoneError) return error.wire;
  return microphoneError(error);
}

export function maxSecondsFor(maxFileMb: number): number {
  return Math.floor((maxFileMb * 1024 * 1024 - WAV_HEADER_BYTES) / WAV_BYTES_PER_SECOND);
}

export function formatClock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export type VoiceStore = StoreApi<VoiceState>;

/** The daemon's own wording (main/voice/settings.ts), known here before any recording is made. */
function notSetUp(problem: string | null): WireError {
  return {
    code: 'transcription_not_configured',
    message: `Voice input is not set up: ${problem ?? 'no endpoint is configured'}.`,
    hint: 'Choose the endpoint and model in Settings → Voice, or set base_url and model under [fermix_core.transcription] in config.toml.',
  };
}

async function defaultListInputs(): Promise<number> {
  const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!devices?.enumerateDevices) throw new Error('no device list');
  return (await devices.enumerateDevices()).filter((device) => device.kind === 'audioinput').length;
}

export function createVoiceStore(client: ApiClient, options: VoiceStoreOptions = {}): VoiceStore {
  const startRecording = options.startRecording ?? startMicrophoneRecording;
  const storage = options.storage === undefined ? (typeof localStorage === 'undefined' ? null : localStorage) : options.storage;
  const now = options.now ?? (() => performance.now());
  const listInputs = options.listInputs ?? defaultListInputs;
  const listeners = new Set<(transcript: Transcript) => void>();
  const pending: Transcript[] = [];

  let recording: Recording | undefined;
  let startedAt = 0;
  let ticker: ReturnType<typeof setInterval> | undefined;
  /** Set when a stop arrives while the microphone is still opening. */
  let stopWhenStarted = false;
  let press: { source: VoiceSource; at: number; startedRecording: boolean; stopOnRelease: boolean } | undefined;
  let shortcut: { lastAt: number; repeats: number; timer: ReturnType<typeof setTimeout> | undefined } | undefined;
  /** Ignores a recording that finished after cancel() or a newer start. */
  let generation = 0;

  const store = createStore<VoiceState>()((set, get) => {
    const deliver = (transcript: Transcript) => {
      if (listeners.size === 0) pending.push(transcript);
      else listeners.forEach((listener) => listener(transcript));
    };

    const stopTicker = () => {
      if (ticker !== undefined) clearInterval(ticker);
      ticker = undefined;
    };

    async function start(source: VoiceSource): Promise<void> {
      if (get().phase !== 'idle') return;
      const mine = ++generation;
      stopWhenStarted = false;
      // "Not set up" comes before any microphone question: recording would only lose the words. A status
      // that says so is checked once more first (config.toml may have been edited since).
      if (get().status?.configured === false) {
        await get().refreshStatus();
        const status = get().status;
        if (mine !== generation) return;
        if (status && !status.configured) {
          set({ error: notSetUp(status.problem) });
          return;
        }
      }
      set({ phase: 'starting', source, holding: false, error: null, notice: null, level: 0, elapsedMs: 0, kept: null });
      // Fresh limits and whether voice is set up; without them the recording still goes ahead and the
      // daemon gives the precise answer.
      void get().refreshStatus();
      try {
        const started = await startRecording();
        if (mine !== generation) {
          started.cancel();
          return;
        }
        recording = started;
      } catch (error) {
        if (mine === generation) set({ phase: 'idle', source: null, error: toWire(error) });
        return;
      }
      startedAt = now();
      set({ phase: 'recording' });
      ticker = setInterval(() => {
        if (!recording) return;
        const elapsedMs = now() - startedAt;
        set({ level: recording.level(), elapsedMs });
        if (elapsedMs / 1000 >= get().maxSeconds) {
          set({ notice: `Recording stopped at the ${get().status?.max_file_mb ?? DEFAULT_MAX_FILE_MB} MB limit (${formatClock(elapsedMs)}).` });
          void get().stop();
        }
      }, TICK_MS);
      if (stopWhenStarted) await get().stop();
    }

    async function transcribe(mine: number, blob: Blob): Promise<void> {
      const started = now();
      try {
        const audio = await toUploadAudio(blob);
        const limitMb = get().status?.max_file_mb ?? DEFAULT_MAX_FILE_MB;
        if (audio.bytes.length > limitMb * 1024 * 1024) {
          const mb = audio.bytes.length / 1024 / 1024;
          throw new FermixError({
            code: 'audio_too_large',
            message: `The recording is ${mb >= 10 ? mb.toFixed(0) : mb.toFixed(1)} MB; transcription takes at most ${limitMb} MB.`,
            hint: 'Record a shorter message, or raise [fermix_core.transcription] max_file_mb in config.toml.',
          });
        }
        const result = await client.call('voice.transcribe', { audio_base64: toBase64(audio.bytes), mime_type: audio.mimeType });
        if (mine !== generation) return;
        const text = result.text.trim();
        set({ phase: 'idle', source: null, lastRoundTripMs: Math.round(now() - started), notice: text ? get().notice : 'No speech was recognised. Speak closer to the microphone and try again.' });
        if (text) deliver({ text, delivery: get().delivery });
      } catch (error) {
        if (mine !== generation) return;
        // The words are in the blob: keep it, so a fixed setup or a recovered endpoint can take it again.
        set({ phase: 'idle', source: null, error: toWire(error), kept: blob });
        // A changed setup (not configured, a new limit) shows in the status next time.
        if (error instanceof FermixError && error.code !== 'transcription_failed') void get().refreshStatus();
      }
    }

    function endShortcut(): void {
      if (shortcut?.timer !== undefined) clearTimeout(shortcut.timer);
      shortcut = undefined;
    }

    return {
      phase: 'idle',
      source: null,
      holding: false,
      level: 0,
      elapsedMs: 0,
      maxSeconds: maxSecondsFor(DEFAULT_MAX_FILE_MB),
      error: null,
      notice: null,
      delivery: readDelivery(storage),
      status: null,
      lastRoundTripMs: null,
      kept: null,
      microphone: 'unknown',

      press(source) {
        const { phase } = get();
        if (phase === 'idle') {
          press = { source, at: now(), startedRecording: true, stopOnRelease: false };
          void start(source).then(() => {
            // Still pressed once the microphone is open: show "release to send".
            if (press?.startedRecording && press.source === source) set({ holding: true });
          });
        } else if (phase === 'recording' || phase === 'starting') {
          press = { source, at: now(), startedRecording: false, stopOnRelease: true };
        }
      },
      release(source) {
        const current = press;
        if (!current || current.source !== source) return;
        press = undefined;
        if (current.stopOnRelease || now() - current.at >= HOLD_MS) void get().stop();
        else set({ holding: false }); // a click: the recording goes on until the next one
      },
      toggle(source) {
        const { phase } = get();
        if (phase === 'idle') void start(source);
        else if (phase === 'recording' || phase === 'starting') void get().stop();
      },
      shortcutPressed() {
        const at = now();
        const { phase } = get();
        if (phase === 'idle') {
          endShortcut();
          shortcut = { lastAt: at, repeats: 0, timer: undefined };
          void start('shortcut');
        } else if (shortcut && at - shortcut.lastAt < SHORTCUT_REPEAT_GAP_MS) {
          shortcut.lastAt = at;
          shortcut.repeats += 1; // the key is held: the OS repeats it
          if (!get().holding) set({ holding: true });
        } else if (phase === 'recording' || phase === 'starting') {
          endShortcut();
          void get().stop(); // a second press: click-style stop
          return;
        } else {
          return; // transcribing: ignore
        }
        if (shortcut) {
          if (shortcut.timer !== undefined) clearTimeout(shortcut.timer);
          const watched = shortcut;
          watched.timer = setTimeout(() => {
            // No repeat for a while: released. After repeats it was held (push-to-talk): stop.
            if (shortcut === watched && watched.repeats > 0) {
              endShortcut();
              void get().stop();
            }
          }, SHORTCUT_REPEAT_GAP_MS);
        }
      },
      async stop() {
        const { phase } = get();
        if (phase === 'starting') {
          stopWhenStarted = true;
          return;
        }
        if (phase !== 'recording' || !recording) return;
        const current = recording;
        recording = undefined;
        stopTicker();
        endShortcut();
        const elapsedMs = now() - startedAt;
        const mine = generation;
        set({ phase: 'transcribing', holding: false, level: 0, elapsedMs });
        let blob: Blob;
        try {
          blob = await current.stop();
        } catch (error) {
          if (mine === generation) set({ phase: 'idle', source: null, error: toWire(error) });
          return;
        }
        if (mine !== generation) return;
        if (elapsedMs < MIN_RECORDING_MS || blob.size === 0) {
          set({ phase: 'idle', source: null, notice: 'That was too short to transcribe. Hold the button while you speak, or click once to start and again to stop.' });
          return;
        }
        await transcribe(mine, blob);
      },
      cancel() {
        generation += 1;
        stopTicker();
        endShortcut();
        press = undefined;
        recording?.cancel();
        recording = undefined;
        set({ phase: 'idle', source: null, holding: false, level: 0, elapsedMs: 0 });
      },
      setDelivery(delivery) {
        try {
          storage?.setItem(DELIVERY_STORAGE_KEY, delivery);
        } catch {
          // storage refused (private mode): the choice lasts for this window
        }
        set({ delivery });
      },
      async refreshStatus() {
        try {
          const status = await client.call('voice.status');
          set({ status, maxSeconds: maxSecondsFor(status.max_file_mb) });
        } catch {
          // an older daemon or a dropped link: the transcribe call will say what is wrong
        }
      },
      async checkMicrophone() {
        try {
          const inputs = await listInputs();
          set({ microphone: inputs > 0 ? 'present' : 'missing' });
        } catch {
          set({ microphone: 'unknown' });
        }
      },
      async retry() {
        const blob = get().kept;
        if (!blob || get().phase !== 'idle') return;
        const mine = ++generation;
        set({ phase: 'transcribing', source: null, error: null, notice: null, kept: null });
        await transcribe(mine, blob);
      },
      dismiss() {
        set({ error: null, notice: null, kept: null });
      },
      onTranscript(listener) {
        listeners.add(listener);
        while (pending.length > 0) listener(pending.shift()!);
        return () => listeners.delete(listener);
      },
      dispose() {
        get().cancel();
        stopEvents?.();
        listeners.clear();
      },
    };
  });

  // The desktop's global push-to-talk shortcut (only the IPC transport carries shell events).
  let stopEvents: (() => void) | undefined;
  try {
    stopEvents = client.subscribe((event: EventEnvelope) => {
      if (event.stream !== SHELL_STREAM || event.type !== PUSH_TO_TALK_EVENT) return;
      // Today the shell sends { action: 'toggle' } per press; a shell that sees key releases may send down/up.
      const action = (event.payload as { action?: string } | null)?.action;
      if (action === 'down') store.getState().press('shortcut');
      else if (action === 'up') store.getState().release('shortcut');
      else store.getState().shortcutPressed();
    });
  } catch {
    stopEvents = undefined; // a transport without events
  }
  return store;
}
