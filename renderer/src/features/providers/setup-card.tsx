import { useId, useState } from 'react';
import { ErrorNotice } from '../../app/error-notice.js';
import { useProviders } from '../../app/model-context.js';
import { FieldError } from '../../ui/field-error.js';
import { providerErrorField } from './error-field.js';
import { ProviderForm } from './provider-form.js';

const OLLAMA_FORM = 'setup-ollama';

/**
 * First run: with no provider configured, the chat offers the choices instead of an empty box. The local
 * Ollama server is offered when it answers on 127.0.0.1:11434 (the daemon probes it), with its models.
 */
export function SetupCard() {
  const ollama = useProviders((state) => state.ollama);
  const loading = useProviders((state) => state.loading);
  const busy = useProviders((state) => state.busy);
  const error = useProviders((state) => state.error);
  const errorOrigin = useProviders((state) => state.errorOrigin);
  const dismiss = useProviders((state) => state.dismiss);
  const load = useProviders((state) => state.load);
  const add = useProviders((state) => state.add);
  const [model, setModel] = useState('');
  const modelId = useId();
  const ollamaErrorId = useId();
  const chosen = model || ollama?.models[0] || '';
  // Each form shows its own errors beside its controls; only what belongs to no form (the probe) is shown below.
  const ollamaError = errorOrigin === OLLAMA_FORM ? error : null;
  const ollamaModelInvalid = ollamaError !== null && providerErrorField(ollamaError, ['model']) === 'model';

  return (
    <section className="setup-card" aria-labelledby="setup-title">
      <h1 id="setup-title">Choose the model Fermix thinks with</h1>
      <p className="muted">No model provider is configured yet. Pick one to start; you can add others and switch later in Settings → Models.</p>
      <div className="setup-options">
        <article className="setup-option" aria-labelledby="setup-ollama">
          <div className="setup-option-text">
            <h2 id="setup-ollama">Local: Ollama on this computer</h2>
            <p className="setup-tradeoff"><strong>Private and free:</strong> messages and files never leave this machine; speed depends on your hardware.</p>
          </div>
          <div className="setup-option-action">
          {ollama?.found ? (
            ollama.models.length > 0 ? (
              <form
                className="provider-form"
                onSubmit={(event) => {
                  event.preventDefault();
                  void add({ name: 'local', type: 'openai-compatible', base_url: ollama.base_url, model: chosen, primary: true }, OLLAMA_FORM);
                }}
              >
                <p role="status">Ollama answers at <code>{ollama.base_url}</code>.</p>
                <div className="field">
                  <label htmlFor={modelId}>Model</label>
                  <select id={modelId} value={chosen} onChange={(event) => { setModel(event.target.value); if (ollamaError) dismiss(); }} aria-invalid={ollamaModelInvalid || undefined} aria-describedby={ollamaModelInvalid ? ollamaErrorId : undefined}>
                    {ollama.models.map((each) => <option key={each} value={each}>{each}</option>)}
                  </select>
                </div>
                <button type="submit" className="primary" disabled={busy || !chosen} aria-describedby={ollamaError && !ollamaModelInvalid ? ollamaErrorId : undefined}>Use Ollama</button>
                {ollamaError && <FieldError id={ollamaErrorId} error={ollamaError} />}
              </form>
            ) : (
              <p role="status">Ollama answers, but has no model yet: run <code>ollama pull qwen3</code>, then check again.</p>
            )
          ) : (
            <p role="status">{loading ? 'Looking for Ollama…' : <>No Ollama server answers on <code>127.0.0.1:11434</code>. Install it from ollama.com and run <code>ollama pull qwen3</code>, then check again.</>}</p>
          )}
          {!(ollama?.found && ollama.models.length > 0) && (
            <button type="button" onClick={() => void load()} disabled={loading}>Check again</button>
          )}
          </div>
        </article>
        <article className="setup-option" aria-labelledby="setup-hosted">
          <div className="setup-option-text">
            <h2 id="setup-hosted">Hosted: OpenAI or Anthropic</h2>
            <p className="setup-tradeoff"><strong>Strong models, paid per token:</strong> messages go to the provider under its terms; every answer shows its tokens and cost. The key is kept in your OS keychain.</p>
          </div>
          <div className="setup-option-action">
            <ProviderForm variant="hosted" submitLabel={(label) => `Use ${label}`} />
          </div>
        </article>
        <article className="setup-option" aria-labelledby="setup-server">
          <div className="setup-option-text">
            <h2 id="setup-server">Your own server</h2>
            <p className="setup-tradeoff"><strong>Your choice:</strong> any OpenAI-compatible server (LM Studio, llama.cpp, vLLM). Private when it runs on your machine or network; it costs what the server costs you.</p>
          </div>
          <div className="setup-option-action">
            <ProviderForm variant="server" submitLabel={() => 'Use this server'} />
          </div>
        </article>
      </div>
      {error && errorOrigin === null && <ErrorNotice error={error} />}
    </section>
  );
}
