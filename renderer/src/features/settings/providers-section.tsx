import { useState } from 'react';
import { ErrorNotice } from '../../app/error-notice.js';
import { useProviders } from '../../app/model-context.js';
import { FieldError } from '../../ui/field-error.js';
import { ProviderForm } from '../providers/provider-form.js';
import type { ProviderInfo } from '../providers/store.js';

export function ProvidersSection() {
  const providers = useProviders((state) => state.providers);
  const loaded = useProviders((state) => state.loaded);
  const error = useProviders((state) => state.error);
  const errorOrigin = useProviders((state) => state.errorOrigin);
  const message = useProviders((state) => state.message);
  const dismiss = useProviders((state) => state.dismiss);
  const [adding, setAdding] = useState(false);
  return (
    <section className="settings-section" id="settings-models" aria-labelledby="settings-providers-title">
      <h2 id="settings-providers-title" tabIndex={-1}>Models</h2>
      <p className="muted">The primary provider answers; the others are fallbacks, tried in order when it fails. Changes apply to the next message.</p>
      {message && <p className="saved-message" role="status">{message}</p>}
      {/* A control's own error is shown beside it (ProviderRow, ProviderForm); here only the section's. */}
      {error && errorOrigin === null && <ErrorNotice error={error} onDismiss={dismiss} />}
      {loaded && providers.length === 0 && <p className="muted">No provider is configured yet.</p>}
      <ul className="provider-list" aria-label="Configured providers">
        {providers.map((provider) => <ProviderRow key={provider.name} provider={provider} />)}
      </ul>
      {adding ? (
        <div className="subpanel">
          <h3>Add a provider</h3>
          <ProviderForm variant="any" askName onAdded={() => setAdding(false)} />
          <button type="button" className="link-button" onClick={() => setAdding(false)}>Cancel</button>
        </div>
      ) : (
        <button type="button" onClick={() => setAdding(true)}>Add a provider</button>
      )}
    </section>
  );
}

function keyText(provider: ProviderInfo): string {
  if (provider.key.source === 'none') return 'no key';
  if (provider.key.present === false) return `key ${provider.key.label} is MISSING`;
  return `key from ${provider.key.label}`;
}

function ProviderRow({ provider }: { provider: ProviderInfo }) {
  const models = useProviders((state) => state.models[provider.name]);
  const loadModels = useProviders((state) => state.loadModels);
  const setPrimary = useProviders((state) => state.setPrimary);
  const setModel = useProviders((state) => state.setModel);
  const setKey = useProviders((state) => state.setKey);
  const remove = useProviders((state) => state.remove);
  const busy = useProviders((state) => state.busy);
  const error = useProviders((state) => state.error);
  const errorOrigin = useProviders((state) => state.errorOrigin);
  const dismiss = useProviders((state) => state.dismiss);
  const [chosen, setChosen] = useState('');
  const [key, setKeyText] = useState('');
  const [confirmRemove, setConfirmRemove] = useState(false);
  const modelId = `model-${provider.name}`;
  const keyId = `key-${provider.name}`;
  const origin = { model: `model:${provider.name}`, key: `key:${provider.name}`, remove: `remove:${provider.name}` };
  const errorFor = (which: keyof typeof origin) => (error && errorOrigin === origin[which] ? error : null);
  const modelError = errorFor('model') ?? models?.error ?? null;
  const keyError = errorFor('key');
  const removeError = errorFor('remove');
  const errorId = { model: `${modelId}-error`, key: `${keyId}-error`, remove: `remove-${provider.name}-error` };
  return (
    <li className="provider-row" aria-label={`Provider ${provider.name}`}>
      <div className="provider-head">
        <strong>{provider.name}</strong>
        {provider.primary && <span className="badge badge-ok">primary</span>}
        <span className="muted">{provider.type}{provider.base_url ? ` · ${provider.base_url}` : ''}</span>
      </div>
      <p>
        Model <code>{provider.model}</code> · <span className={provider.key.present === false ? 'bad' : 'muted'}>{keyText(provider)}</span>
      </p>
      {provider.key.problem && <p className="muted small">{provider.key.problem}</p>}
      <div className="inline-fields">
        <label htmlFor={modelId} className="visually-hidden">Model for {provider.name}</label>
        {models?.models.length ? (
          <select id={modelId} value={chosen || provider.model} onChange={(event) => { setChosen(event.target.value); if (errorFor('model')) dismiss(); }} aria-invalid={modelError ? true : undefined} aria-describedby={modelError ? errorId.model : undefined}>
            {[...new Set([provider.model, ...models.models])].map((each) => <option key={each} value={each}>{each}</option>)}
          </select>
        ) : null}
        <button type="button" onClick={() => void loadModels(provider.name)} disabled={models?.loading} aria-describedby={modelError && !models?.models.length ? errorId.model : undefined}>
          {models?.loading ? 'Loading models…' : models ? 'Reload models' : 'Choose model…'}
        </button>
        {chosen && chosen !== provider.model && (
          <button type="button" className="primary" disabled={busy} onClick={() => void setModel(provider.name, chosen, origin.model).then((ok) => ok && setChosen(''))}>
            Use {chosen}
          </button>
        )}
        {!provider.primary && (
          <button type="button" disabled={busy} onClick={() => void setPrimary(provider.name, origin.model)}>Make primary</button>
        )}
      </div>
      {modelError && <FieldError id={errorId.model} error={modelError} />}
      {provider.type !== 'openai-compatible' || provider.key.source !== 'none' ? (
        <form
          className="inline-fields"
          onSubmit={(event) => {
            event.preventDefault();
            if (key.trim()) void setKey(provider.name, key.trim(), origin.key).then((ok) => ok && setKeyText(''));
          }}
        >
          <label htmlFor={keyId}>New API key</label>
          <input id={keyId} type="password" autoComplete="off" value={key} onChange={(event) => { setKeyText(event.target.value); if (keyError) dismiss(); }} aria-invalid={keyError ? true : undefined} aria-describedby={keyError ? errorId.key : undefined} />
          <button type="submit" disabled={busy || !key.trim()}>Store in keychain</button>
        </form>
      ) : null}
      {keyError && <FieldError id={errorId.key} error={keyError} />}
      <div className="inline-fields">
        {confirmRemove ? (
          <>
            <span>Remove {provider.name} from config.toml?</span>
            <button type="button" className="danger" disabled={busy} onClick={() => void remove(provider.name, origin.remove)} aria-describedby={removeError ? errorId.remove : undefined}>Remove</button>
            <button type="button" onClick={() => setConfirmRemove(false)}>Keep</button>
          </>
        ) : (
          <button type="button" className="link-button" onClick={() => setConfirmRemove(true)} aria-label={`Remove provider ${provider.name}`}>Remove</button>
        )}
      </div>
      {removeError && <FieldError id={errorId.remove} error={removeError} />}
    </li>
  );
}
