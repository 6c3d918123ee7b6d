/**
 * API handlers of providers.add|remove|set_primary|set_model|set_key (main/api/methods/provider-settings.ts):
 * Settings → Models and the chat's first-run card. Same edits as `fermix providers …` (main/cli/verbs/providers.ts):
 * config.toml is written validated and atomically, keys go to the OS keychain (service fermix:<NAME>_API_KEY),
 * never to config. The agent reads config at every turn, so an edit answers the next message.
 */
import type { Handlers } from '../api/dispatcher.js';
import { loadConfig, updateConfig } from '../config/config-file.js';
import { FermixError } from '../core/errors.js';
import type { Keychain } from '../secrets/keychain.js';
import { listModels } from '../agent/providers/model-list.js';
import { defaultProviderName } from '../api/provider-name.js';

export type ProviderSettingsMethodName = 'providers.probe_models' | 'providers.add' | 'providers.remove' | 'providers.set_primary' | 'providers.set_model' | 'providers.set_key';

export interface ProviderSettingsOptions {
  configFile: string;
  /** The keychain for `[fermix_core] profile` (createKeychain({ profile })). */
  keychain: (profile: string) => Pick<Keychain, 'set'>;
  fetch?: typeof fetch;
}

type Raw = Record<string, unknown>;
const providersOf = (raw: Raw) => ((raw.providers ??= {}) as Record<string, Raw>);

/** `OPENAI_API_KEY` for a provider named openai, as `fermix providers set-key` names it. */
export function providerKeyName(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`;
}

const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

function unknownProvider(name: string): FermixError {
  return new FermixError({ code: 'unknown_provider', message: `No provider named ${name} is configured.`, hint: 'Settings → Models lists the configured names (or run `fermix providers list`).', data: { name } });
}

export function createProviderSettingsHandlers(options: ProviderSettingsOptions): Pick<Handlers, ProviderSettingsMethodName> {
  const file = options.configFile;
  const mustExist = (raw: Raw, name: string) => {
    if (!providersOf(raw)[name]) throw unknownProvider(name);
  };
  const storeKey = (name: string, value: string): string => {
    const secretName = providerKeyName(name);
    // The key is stored before config points at it: a config that names a missing key would fail every turn.
    options.keychain(loadConfig(file).config.fermix_core.profile).set(secretName, value);
    return `@keyring:${secretName}`;
  };

  return {
    'providers.probe_models': async (input) => ({
      models: await listModels(
        { name: defaultProviderName(input.type, input.base_url), type: input.type, baseUrl: input.base_url ?? (input.type === 'openai-compatible' ? OLLAMA_BASE_URL : undefined), model: '', primary: false, timeoutMs: 10_000, keySource: 'none', keyLabel: null },
        input.api_key,
        options.fetch,
      ),
    }),
    'providers.add': (input) => {
      const ref = input.api_key ? storeKey(input.name, input.api_key) : null;
      let primary = false;
      updateConfig(file, (raw) => {
        const all = providersOf(raw);
        const entry: Raw = { ...(all[input.name] ?? {}), type: input.type, model: input.model };
        if (input.base_url) entry.base_url = input.base_url;
        else if (input.type === 'openai-compatible' && entry.base_url === undefined) entry.base_url = OLLAMA_BASE_URL;
        else if (input.type !== 'openai-compatible' && !input.base_url) delete entry.base_url;
        if (ref) {
          entry.api_key_ref = ref;
          delete entry.api_key_env;
        }
        const first = Object.keys(all).filter((other) => other !== input.name).length === 0;
        if (input.primary || first) {
          for (const other of Object.values(all)) delete other.primary;
          entry.primary = true;
          primary = true;
        }
        all[input.name] = entry;
      });
      return { name: input.name, primary, api_key_ref: ref };
    },
    'providers.remove': (input) => {
      updateConfig(file, (raw) => {
        mustExist(raw, input.name);
        delete providersOf(raw)[input.name];
      });
      return { name: input.name };
    },
    'providers.set_primary': (input) => {
      updateConfig(file, (raw) => {
        mustExist(raw, input.name);
        for (const [other, entry] of Object.entries(providersOf(raw))) {
          if (other === input.name) entry.primary = true;
          else delete entry.primary;
        }
      });
      return { primary: input.name };
    },
    'providers.set_model': (input) => {
      updateConfig(file, (raw) => {
        mustExist(raw, input.name);
        providersOf(raw)[input.name].model = input.model;
      });
      return { name: input.name, model: input.model };
    },
    'providers.set_key': (input) => {
      mustExist(loadConfig(file).raw, input.name);
      const ref = storeKey(input.name, input.api_key);
      updateConfig(file, (raw) => {
        const entry = providersOf(raw)[input.name];
        entry.api_key_ref = ref;
        delete entry.api_key_env;
      });
      return { name: input.name, api_key_ref: ref };
    },
  };
}
