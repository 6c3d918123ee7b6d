import { useEffect, useId, useState } from 'react';
import { useSettings } from '../../app/model-context.js';
import { VoiceReadiness, VoiceSettings } from '../voice/voice-settings.js';
import { SaveFeedback } from './save-feedback.js';

/** The transcription endpoint ([fermix_core.transcription]) and the voice feature's own choices. */
export function TranscriptionSection() {
  const settings = useSettings((state) => state.settings);
  const update = useSettings((state) => state.update);
  const setKey = useSettings((state) => state.setTranscriptionKey);
  const busy = useSettings((state) => state.busy);
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [key, setKeyText] = useState('');
  const ids = { url: useId(), model: useId(), key: useId(), keyHelp: useId() };
  const current = settings?.transcription;
  useEffect(() => {
    setBaseUrl(current?.base_url ?? '');
    setModel(current?.model ?? '');
  }, [current?.base_url, current?.model]);
  const save = async () => {
    // The endpoint first, then the key: a key is stored only for an endpoint that was accepted.
    const changed = baseUrl.trim() !== (current?.base_url ?? '') || model.trim() !== (current?.model ?? '') || !key.trim();
    if (changed && !(await update({ transcription: { base_url: baseUrl.trim() || null, model: model.trim() || null } }, 'transcription'))) return;
    if (key.trim() && (await setKey(key.trim()))) setKeyText('');
  };
  return (
    <section className="settings-section" id="settings-voice" aria-labelledby="settings-voice-title">
      <h2 id="settings-voice-title" tabIndex={-1}>Voice</h2>
      <VoiceReadiness />
      <p className="muted">Recordings are transcribed by an OpenAI-compatible <code>/v1/audio/transcriptions</code> endpoint: OpenAI, Groq, or a local whisper.cpp server (private).</p>
      {current && (
        <form
          className="settings-stack"
          aria-label="Transcription endpoint"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <div className="field">
            <label htmlFor={ids.url}>Endpoint base URL</label>
            <input id={ids.url} type="url" value={baseUrl} placeholder="http://127.0.0.1:8080/v1" onChange={(event) => setBaseUrl(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={ids.model}>Model</label>
            <input id={ids.model} value={model} placeholder="whisper-1" onChange={(event) => setModel(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={ids.key}>API key</label>
            <input id={ids.key} type="password" autoComplete="off" value={key} aria-describedby={ids.keyHelp} placeholder={current.api_key_ref ? 'stored — type to replace' : 'none (a local server needs none)'} onChange={(event) => setKeyText(event.target.value)} />
            <span id={ids.keyHelp} className="muted small">{current.api_key_ref ? <>Stored in the OS keychain as <code>{current.api_key_ref}</code>.</> : 'Kept in the OS keychain, never in config.toml.'}</span>
          </div>
          <div className="settings-actions">
            <button type="submit" className="primary" disabled={busy}>Save voice settings</button>
            <SaveFeedback origin={['transcription', 'transcription-key']} />
          </div>
          <p className="muted small">Recordings up to {current.max_file_mb} MB.</p>
        </form>
      )}
      <VoiceSettings />
    </section>
  );
}
