import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InputOf, OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type ProviderInfo = OutputOf<'providers.list'>['providers'][number];
export type OllamaProbe = NonNullable<OutputOf<'providers.list'>['ollama']>;
export type AddProviderInput = InputOf<'providers.add'>;
export type ProbeInput = InputOf<'providers.probe_models'>;

export interface ModelList {
  loading: boolean;
  models: string[];
  error: WireError | null;
}

export interface ProvidersState {
  providers: ProviderInfo[];
  /** Only probed while no provider is configured (the first-run card). */
  ollama: OllamaProbe | null;
  loaded: boolean;
  loading: boolean;
  busy: boolean;
  error: WireError | null;
  /** The control the error came from (a form's id, `key:<name>`, …), so it shows beside it; null = the section's. */
  errorOrigin: string | null;
  /** The last change, said in one sentence. */
  message: string | null;
  models: Record<string, ModelList>;
  load(): Promise<void>;
  loadModels(name: string): Promise<void>;
  /** A model list for a provider not saved yet (type, URL, key), so the person picks from the real list. */
  probeModels(input: ProbeInput): Promise<string[] | WireError>;
  add(input: AddProviderInput, origin?: string): Promise<boolean>;
  setPrimary(name: string, origin?: string): Promise<boolean>;
  setModel(name: string, model: string, origin?: string): Promise<boolean>;
  setKey(name: string, apiKey: string, origin?: string): Promise<boolean>;
  remove(name: string, origin?: string): Promise<boolean>;
  dismiss(): void;
}

export function createProvidersStore(client: ApiClient): StoreApi<ProvidersState> {
  return createStore<ProvidersState>()((set, get) => {
    const edit = async (work: () => Promise<string>, origin: string | null = null): Promise<boolean> => {
      set({ busy: true, error: null, errorOrigin: null, message: null });
      try {
        const message = await work();
        await get().load();
        set({ busy: false, message });
        return true;
      } catch (error) {
        set({ busy: false, error: toWireError(error), errorOrigin: origin });
        return false;
      }
    };
    return {
      providers: [],
      ollama: null,
      loaded: false,
      loading: false,
      busy: false,
      error: null,
      errorOrigin: null,
      message: null,
      models: {},
      async load() {
        set({ loading: true });
        try {
          const { providers, ollama } = await client.call('providers.list');
          set({ providers, ollama, loaded: true, loading: false });
        } catch (error) {
          set({ error: toWireError(error), errorOrigin: null, loading: false });
        }
      },
      async loadModels(name) {
        set({ models: { ...get().models, [name]: { loading: true, models: get().models[name]?.models ?? [], error: null } } });
        try {
          const { models } = await client.call('providers.models', { name });
          set({ models: { ...get().models, [name]: { loading: false, models, error: null } } });
        } catch (error) {
          set({ models: { ...get().models, [name]: { loading: false, models: [], error: toWireError(error) } } });
        }
      },
      async probeModels(input) {
        try {
          return (await client.call('providers.probe_models', input)).models;
        } catch (error) {
          return toWireError(error);
        }
      },
      add: (input, origin) =>
        edit(async () => {
          const result = await client.call('providers.add', input);
          return `Added ${result.name}${result.primary ? ' as the primary provider' : ''}${result.api_key_ref ? '; its key is in the OS keychain' : ''}. It answers the next message.`;
        }, origin),
      setPrimary: (name, origin) =>
        edit(async () => {
          await client.call('providers.set_primary', { name });
          return `${name} is now the primary provider; the others are fallbacks.`;
        }, origin),
      setModel: (name, model, origin) =>
        edit(async () => {
          await client.call('providers.set_model', { name, model });
          return `${name} now uses ${model}.`;
        }, origin),
      setKey: (name, apiKey, origin) =>
        edit(async () => {
          await client.call('providers.set_key', { name, api_key: apiKey });
          return `Stored the key for ${name} in the OS keychain.`;
        }, origin),
      remove: (name, origin) =>
        edit(async () => {
          await client.call('providers.remove', { name });
          return `Removed ${name}.`;
        }, origin),
      dismiss() {
        set({ error: null, errorOrigin: null, message: null });
      },
    };
  });
}
