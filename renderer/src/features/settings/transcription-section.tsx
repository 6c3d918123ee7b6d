import { useEffect, useId, useState } from 'react';
import { useSettings } from '../../app/model-context.js';
import { FieldError } from '../../ui/field-error.js';
import { VoiceReadiness, VoiceSettings } from '../voice/voice-settings.js';
import { SaveFeedback } from './save-feedback.js';

/** The transcription endpoint ([fermix_core.transcription]) and the voice feature's own choices. */
export function TranscriptionSection() {
  const settings = useSettings((state) => state.settings);
  const update = useSettings((state) => state.update);
  const setKey = useSettings((state) => state.setTranscriptionKey);
  const busy = useSettings((state) => state.busy);
  const feedback = useSettings((state) => state.feedback);
  const dismiss = useSettings((state) => state.dismiss);
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [key, setKeyText] = useState('');
  const ids = { url: useId(), model: useId(), key: useId(), keyHelp: useId(), error: useId() };
  // A refused save is shown under the field it is about (the daemon names it in the error's data), else by Save.
  const error = feedback?.error && (feedback.origin === 'transcription' || feedback.origin === 'transcription-key') ? feedback.error : null;
  const about = JSON.stringify(error?.data ?? {});
  const errorField = !error ? null : feedback?.origin === 'transcription-key' ? 'key' : /"field":"[^"]*base_url"/.test(about) ? 'url' : /"field":"[^"]*model"/.test(about) ? 'model' : null;
  const invalid = (field: 'url' | 'model' | 'key') => (errorField === field ? { 'aria-invalid': true as const } : {});
  const describedBy = (field: 'url' | 'model' | 'key', ...more: string[]) => [...(errorField === field ? [ids.error] : []), ...more].join(' ') || undefined;
  const errorUnder = (field: 'url' | 'model' | 'key' | null) => (error && errorField === field ? <FieldError id={ids.error} error={error} /> : null);
  const edited = () => {
    if (error) dismiss();
  };
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
            <input id={ids.url} type="url" value={baseUrl} placeholder="http://127.0.0.1:8080/v1" onChange={(event) => { setBaseUrl(event.target.value); edited(); }} {...invalid('url')} aria-describedby={describedBy('url')} />
            {errorUnder('url')}
          </div>
          <div className="field">
            <label htmlFor={ids.model}>Model</label>
            <input id={ids.model} value={model} placeholder="whisper-1" onChange={(event) => { setModel(event.target.value); edited(); }} {...invalid('model')} aria-describedby={describedBy('model')} />
            {errorUnder('model')}
          </div>
          <div className="field">
            <label htmlFor={ids.key}>API key</label>
            <input id={ids.key} type="password" autoComplete="off" value={key} {...invalid('key')} aria-describedby={describedBy('key', ids.keyHelp)} placeholder={current.api_key_ref ? 'stored — type to replace' : 'none (a local server needs none)'} onChange={(event) => { setKeyText(event.target.value); edited(); }} />
            {errorUnder('key')}
            <span id={ids.keyHelp} className="muted small">{current.api_key_ref ? <>Stored in the OS keychain as <code>{current.api_key_ref}</code>.</> : 'Kept in the OS keychain, never in config.toml.'}</span>
          </div>
          <div className="settings-actions">
            <button type="submit" className="primary" disabled={busy} aria-describedby={error && errorField === null ? ids.error : undefined}>Save voice settings</button>
            {/* Success is confirmed here; an error here only when it is about no single field. */}
            {error ? errorUnder(null) : <SaveFeedback origin={['transcription', 'transcription-key']} />}
          </div>
        </form>
      )}
      <VoiceSettings />
    </section>
  );
}
