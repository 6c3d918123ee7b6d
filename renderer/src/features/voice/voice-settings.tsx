/**
 * VoiceSettings — the voice part of Settings → Voice: what happens to a transcript (send it, or put it in
 * the input to edit). VoiceReadiness says whether the transcription endpoint is set up, or what is missing. The endpoint itself
 * (base_url, model, key) is edited with settings.update / settings.set_transcription_key.
 * Needs a VoiceProvider above it; without one it renders nothing.
 */
import { useEffect, useId } from 'react';
import { useStore } from 'zustand';
import type { VoiceStore } from './store.js';
import { shortcutScope, useVoiceStore } from './voice-context.js';
import './voice.css';

export function VoiceSettings() {
  const store = useVoiceStore();
  if (!store) return null;
  return <VoiceSettingsSection store={store} />;
}

function VoiceSettingsSection({ store }: { store: VoiceStore }) {
  const delivery = useStore(store, (state) => state.delivery);
  const id = useId();
  return (
    <section className="voice-settings" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Voice input</h3>
      <fieldset>
        <legend>When a recording is transcribed</legend>
        <label>
          <input type="radio" name={`${id}-delivery`} value="send" checked={delivery === 'send'} onChange={() => store.getState().setDelivery('send')} />
          Send the text as a message right away
        </label>
        <label>
          <input type="radio" name={`${id}-delivery`} value="edit" checked={delivery === 'edit'} onChange={() => store.getState().setDelivery('edit')} />
          Put the text in the message box, to edit before sending
        </label>
      </fieldset>
      <p className="voice-settings-help">
        Click the microphone to start and again to stop, or hold it (or <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Space</kbd>) while you speak. The shortcut {shortcutScope().replace(/^while/, 'works while')}.
      </p>
    </section>
  );
}

/** Whether voice can be used now, or exactly what is missing: the first thing the Voice section says. */
export function VoiceReadiness() {
  const store = useVoiceStore();
  if (!store) return null;
  return <Readiness store={store} />;
}

function Readiness({ store }: { store: VoiceStore }) {
  const status = useStore(store, (state) => state.status);
  const lastRoundTripMs = useStore(store, (state) => state.lastRoundTripMs);
  const kept = useStore(store, (state) => state.kept !== null);
  useEffect(() => {
    void store.getState().refreshStatus();
  }, [store]);
  if (status === null) return <p className="voice-readiness" role="status">Checking the transcription endpoint…</p>;
  return (
    <div className={`voice-readiness ${status.configured ? 'is-ready' : 'is-missing'}`} role="status">
      {status.configured
        ? <p><strong>Ready.</strong> Transcribed by <code>{status.model}</code> at <code>{status.base_url}</code>, recordings up to {status.max_file_mb} MB{lastRoundTripMs !== null ? ` (last one took ${(lastRoundTripMs / 1000).toFixed(1)} s)` : ''}.</p>
        : <p><strong>Voice input is not set up:</strong> {status.problem}. Set the endpoint (an OpenAI-compatible <code>…/v1</code> such as OpenAI, Groq or a local whisper.cpp server) and model below, or in <code>[fermix_core.transcription]</code> of config.toml.</p>}
      {kept && <p>A recording that was not transcribed is kept: go back to the chat and choose <strong>Retry</strong> beside the microphone.</p>}
    </div>
  );
}
