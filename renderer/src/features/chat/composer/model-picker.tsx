import { useEffect } from 'react';
import { useProviders } from '../../../app/model-context.js';

const SEPARATOR = '\u0000';

/**
 * Which model answers the next message: the primary provider and its model, picked from the daemon's
 * lists (providers.list, providers.models). A pick is the same edit as Settings → Providers
 * (providers.set_primary / set_model, written to config.toml), so it holds for every window and the CLI.
 */
export function ModelPicker({ disabled }: { disabled?: boolean }) {
  const providers = useProviders((state) => state.providers);
  const loaded = useProviders((state) => state.loaded);
  const models = useProviders((state) => state.models);
  const busy = useProviders((state) => state.busy);
  const load = useProviders((state) => state.load);
  const loadModels = useProviders((state) => state.loadModels);
  const setPrimary = useProviders((state) => state.setPrimary);
  const setModel = useProviders((state) => state.setModel);
  const primary = providers.find((each) => each.primary) ?? providers[0];

  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);
  useEffect(() => {
    // Every provider's list, once: a few small requests to local or vendor APIs, read when the box shows.
    for (const each of providers) if (!models[each.name]) void loadModels(each.name);
  }, [providers, models, loadModels]);

  if (!primary) return null;
  const choose = async (value: string) => {
    const [name, model] = value.split(SEPARATOR);
    const provider = providers.find((each) => each.name === name);
    if (!provider) return;
    if (!provider.primary && !(await setPrimary(name))) return;
    if (model !== provider.model) await setModel(name, model);
  };
  // "local · m": the provider is always in sight — as the label with one provider, in the option with several.
  const single = providers.length === 1;
  const current = `${primary.name} · ${primary.model}`;
  return (
    <label className="model-picker" title={`Answers your next message: ${current}. Settings → Models has the rest.`}>
      {single && (
        <span className="model-picker-provider" aria-hidden="true">
          {primary.name} ·
        </span>
      )}
      <select
        aria-label={`Model (${primary.name})`}
        value={`${primary.name}${SEPARATOR}${primary.model}`}
        disabled={disabled || busy}
        onChange={(event) => void choose(event.target.value)}
      >
        {providers.map((provider) => {
          const listed = models[provider.name]?.models ?? [];
          const options = listed.includes(provider.model) ? listed : [provider.model, ...listed];
          return (
            <optgroup key={provider.name} label={provider.name}>
              {options.map((model) => (
                <option key={model} value={`${provider.name}${SEPARATOR}${model}`}>
                  {single ? model : `${provider.name} · ${model}`}
                </option>
              ))}
            </optgroup>
          );
        })}
      </select>
    </label>
  );
}
