import { useEffect, useId, useState } from 'react';
import { useSettings } from '../../app/model-context.js';
import { VoiceSettings } from '../voice/voice-settings.js';

/** The transcription endpoint ([fermix_core.transcription]) and the voice feature's own choices. */
export function TranscriptionSection() {
  const settings = useSettings((state) => state.settings);
  const update = useSettings((state) => state.update);
  const setKey = useSettings((state) => state.setTranscriptionKey);
  const busy = useSettings((state) => state.busy);
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [key, setKeyText] = useState('');
  const ids = { url: useId(), model: useId(), key: useId() };
  const current = settings?.transcription;
  useEffect(() => {
    setBaseUrl(current?.base_url ?? '');
    setModel(current?.model ?? '');
  }, [current?.base_url, current?.model]);
  return (
    <section className="settings-section" id="settings-transcription" aria-labelledby="settings-transcription-title">
      <h2 id="settings-transcription-title">Voice and transcription</h2>
      <p className="muted">Recordings are transcribed by an OpenAI-compatible <code>/v1/audio/transcriptions</code> endpoint: OpenAI, Groq, or a local whisper.cpp server (private).</p>
      {current && (
        <>
          <form
            className="settings-form"
            onSubmit={(event) => {
              event.preventDefault();
              void update({ transcription: { base_url: baseUrl.trim() || null, model: model.trim() || null } });
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
            <button type="submit" disabled={busy}>Save transcription settings</button>
          </form>
          <form
            className="inline-fields"
            onSubmit={(event) => {
              event.preventDefault();
              if (key.trim()) void setKey(key.trim()).then((ok) => ok && setKeyText(''));
            }}
          >
            <label htmlFor={ids.key}>API key {current.api_key_ref ? <span className="muted">(stored: {current.api_key_ref})</span> : <span className="muted">(none)</span>}</label>
            <input id={ids.key} type="password" autoComplete="off" value={key} onChange={(event) => setKeyText(event.target.value)} />
            <button type="submit" disabled={busy || !key.trim()}>Store in keychain</button>
          </form>
          <p className="muted small">Recordings up to {current.max_file_mb} MB.</p>
        </>
      )}
      <VoiceSettings />
    </section>
  );
}
