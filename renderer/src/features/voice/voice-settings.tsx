/**
 * VoiceSettings — the Voice section for the Settings screen: what happens to a transcript (send it, or put
 * it in the input to edit), and whether the transcription endpoint is set up. The endpoint itself
 * (base_url, model, key) is edited with settings.update / settings.set_transcription_key.
 * Needs a VoiceProvider above it; without one it renders nothing.
 */
import { useEffect, useId } from 'react';
import { useStore } from 'zustand';
import type { VoiceStore } from './store.js';
import { useVoiceStore } from './voice-context.js';
import './voice.css';

export function VoiceSettings() {
  const store = useVoiceStore();
  if (!store) return null;
  return <VoiceSettingsSection store={store} />;
}

function VoiceSettingsSection({ store }: { store: VoiceStore }) {
  const delivery = useStore(store, (state) => state.delivery);
  const status = useStore(store, (state) => state.status);
  const lastRoundTripMs = useStore(store, (state) => state.lastRoundTripMs);
  const id = useId();
  useEffect(() => {
    void store.getState().refreshStatus();
  }, [store]);
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
      <p className="voice-settings-endpoint">
        {status === null
          ? 'Checking the transcription endpoint…'
          : status.configured
            ? <>Transcribed by <code>{status.model}</code> at <code>{status.base_url}</code>, recordings up to {status.max_file_mb} MB{lastRoundTripMs !== null ? ` (last one took ${(lastRoundTripMs / 1000).toFixed(1)} s)` : ''}.</>
            : <>Not set up: {status.problem}. Set the endpoint (an OpenAI-compatible <code>…/v1</code> such as OpenAI, Groq or a local whisper.cpp server) and model below, or in <code>[fermix_core.transcription]</code> of config.toml.</>}
      </p>
      <p className="voice-settings-help">
        Click the microphone to start and again to stop, or hold it (or <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Space</kbd>) while you speak. In the desktop app the shortcut works from any application.
      </p>
    </section>
  );
}
