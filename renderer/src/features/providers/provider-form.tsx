import { useId, useState } from 'react';
import type { WireError } from '../../../../main/core/errors.js';
import { useProviders } from '../../app/model-context.js';
import { FieldError } from '../../ui/field-error.js';
import { defaultProviderName } from '../../../../main/api/provider-name.js';
import { providerErrorField, type ProviderField } from './error-field.js';

type ProviderType = 'openai' | 'anthropic' | 'openai-compatible';

const TYPE_LABEL: Record<ProviderType, string> = { openai: 'OpenAI', anthropic: 'Anthropic', 'openai-compatible': 'OpenAI-compatible server' };

export interface ProviderFormProps {
  /** hosted: OpenAI or Anthropic with a key; server: any OpenAI-compatible URL; any: all fields. */
  variant: 'hosted' | 'server' | 'any';
  /** Shown (and editable) in Settings; the first-run card uses a fixed name. */
  askName?: boolean;
  submitLabel?: (typeLabel: string) => string;
  onAdded?: () => void;
}

/**
 * Adds a provider the way a person expects: type (and URL), key, then the model picked from the list the
 * provider itself returns (providers.probe_models), never from a list shipped with the app. The key goes
 * to the daemon once, which stores it in the OS keychain.
 */
export function ProviderForm({ variant, askName = false, submitLabel, onAdded }: ProviderFormProps) {
  const probe = useProviders((state) => state.probeModels);
  const add = useProviders((state) => state.add);
  const busy = useProviders((state) => state.busy);
  const storeError = useProviders((state) => state.error);
  const errorOrigin = useProviders((state) => state.errorOrigin);
  const dismiss = useProviders((state) => state.dismiss);
  const formId = useId();
  const [type, setType] = useState<ProviderType>(variant === 'server' ? 'openai-compatible' : 'openai');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState<string[] | null>(null);
  const [model, setModel] = useState('');
  const [probing, setProbing] = useState(false);
  const [problem, setProblem] = useState<WireError | null>(null);
  const ids = { type: useId(), name: useId(), url: useId(), key: useId(), model: useId(), error: useId() };
  const needsUrl = type === 'openai-compatible';
  const keyRequired = type !== 'openai-compatible';
  // The vendor or the server's host, never a placeholder: the name shows up in Settings and in errors.
  const defaultName = defaultProviderName(type, baseUrl.trim() || undefined);

  // One error at a time, shown under the field it is about (or by the button that failed) and cleared by an edit.
  const addError = errorOrigin === formId ? storeError : null;
  const shownFields: ProviderField[] = [...(askName ? (['name'] as const) : []), ...(needsUrl ? (['url'] as const) : []), 'key', 'model'];
  const error = addError ?? problem;
  const errorField = error ? providerErrorField(error, shownFields) : null;
  const errorBy = error && errorField === null ? (addError ? 'submit' : 'probe') : null;
  const invalid = (field: ProviderField) => (errorField === field ? { 'aria-invalid': true as const, 'aria-describedby': ids.error } : {});
  const errorUnder = (field: ProviderField | 'submit' | 'probe') => error && (errorField ?? errorBy) === field ? <FieldError id={ids.error} error={error} /> : null;
  const clearAddError = () => {
    if (addError) dismiss();
  };

  const reset = () => {
    setModels(null);
    setModel('');
    setProblem(null);
    clearAddError();
  };

  const loadModels = async () => {
    setProbing(true);
    setProblem(null);
    const result = await probe({ type, ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}), ...(apiKey.trim() ? { api_key: apiKey.trim() } : {}) });
    setProbing(false);
    if (Array.isArray(result)) {
      setModels(result);
      setModel(result[0] ?? '');
      if (result.length === 0) setProblem({ code: 'no_models', message: 'The provider lists no models.', hint: 'Type the model name below, as the provider documents it.' });
    } else {
      setModels([]);
      setProblem(result);
    }
  };

  const submit = async () => {
    const ok = await add({
      name: (askName && name.trim()) || defaultName,
      type,
      model: model.trim(),
      primary: true,
      ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}),
      ...(apiKey.trim() ? { api_key: apiKey.trim() } : {}),
    }, formId);
    if (ok) {
      setApiKey('');
      onAdded?.();
    }
  };

  const ready = model.trim() !== '' && (!keyRequired || apiKey.trim() !== '') && (!needsUrl || baseUrl.trim() !== '');
  return (
    <form
      className="provider-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) void submit();
      }}
    >
      {variant !== 'server' && (
        <div className="field">
          <label htmlFor={ids.type}>Provider</label>
          <select id={ids.type} value={type} onChange={(event) => { setType(event.target.value as ProviderType); reset(); }}>
            {(variant === 'hosted' ? (['openai', 'anthropic'] as const) : (['openai', 'anthropic', 'openai-compatible'] as const)).map((each) => (
              <option key={each} value={each}>{TYPE_LABEL[each]}</option>
            ))}
          </select>
        </div>
      )}
      {askName && (
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input id={ids.name} value={name} placeholder={defaultName} onChange={(event) => { setName(event.target.value); clearAddError(); }} pattern="[A-Za-z0-9_-]{1,64}" {...invalid('name')} />
          {errorUnder('name')}
        </div>
      )}
      {needsUrl && (
        <div className="field">
          <label htmlFor={ids.url}>Server URL</label>
          <input id={ids.url} type="url" value={baseUrl} placeholder="http://127.0.0.1:1234/v1" onChange={(event) => { setBaseUrl(event.target.value); reset(); }} {...invalid('url')} />
          {errorUnder('url')}
        </div>
      )}
      <div className="field">
        <label htmlFor={ids.key}>API key{keyRequired ? '' : ' (if the server needs one)'}</label>
        <input id={ids.key} type="password" autoComplete="off" value={apiKey} onChange={(event) => { setApiKey(event.target.value); reset(); }} {...invalid('key')} />
        {errorUnder('key')}
      </div>
      <div className="field">
        <label htmlFor={ids.model}>Model</label>
        <div className="inline-fields">
          {models && models.length > 0 ? (
            <select id={ids.model} value={model} onChange={(event) => { setModel(event.target.value); clearAddError(); }} {...invalid('model')}>
              {models.map((each) => <option key={each} value={each}>{each}</option>)}
            </select>
          ) : (
            <input id={ids.model} value={model} placeholder={models ? 'model name' : 'load the list first'} onChange={(event) => { setModel(event.target.value); clearAddError(); }} disabled={models === null} {...invalid('model')} />
          )}
          <button type="button" onClick={() => void loadModels()} disabled={probing || (keyRequired && !apiKey.trim()) || (needsUrl && !baseUrl.trim())} aria-describedby={errorBy === 'probe' ? ids.error : undefined}>
            {probing ? 'Loading…' : models ? 'Reload models' : 'Load models'}
          </button>
        </div>
        {errorUnder('model') ?? errorUnder('probe')}
      </div>
      <button type="submit" className="primary" disabled={!ready || busy} aria-describedby={errorBy === 'submit' ? ids.error : undefined}>
        {submitLabel ? submitLabel(TYPE_LABEL[type]) : `Add ${TYPE_LABEL[type]}`}
      </button>
      {errorUnder('submit')}
    </form>
  );
}
