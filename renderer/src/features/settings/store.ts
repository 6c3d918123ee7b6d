import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InputOf, OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type SettingsView = OutputOf<'settings.get'>;
export type SettingsUpdate = InputOf<'settings.update'>;

export interface SettingsState {
  settings: SettingsView | null;
  loading: boolean;
  busy: boolean;
  error: WireError | null;
  message: string | null;
  load(): Promise<void>;
  update(change: SettingsUpdate): Promise<boolean>;
  grantPath(path: string): Promise<boolean>;
  revokePath(path: string): Promise<boolean>;
  setTranscriptionKey(apiKey: string): Promise<boolean>;
  dismiss(): void;
}

/** Settings → permissions, sandbox and transcription (providers are providers/store.ts). */
export function createSettingsStore(client: ApiClient): StoreApi<SettingsState> {
  return createStore<SettingsState>()((set) => {
    const change = async (work: () => Promise<SettingsView & { message: string }>): Promise<boolean> => {
      set({ busy: true, error: null, message: null });
      try {
        const { message, ...settings } = await work();
        set({ settings, message, busy: false });
        return true;
      } catch (error) {
        set({ error: toWireError(error), busy: false });
        return false;
      }
    };
    return {
      settings: null,
      loading: false,
      busy: false,
      error: null,
      message: null,
      async load() {
        set({ loading: true });
        try {
          set({ settings: await client.call('settings.get'), loading: false, error: null });
        } catch (error) {
          set({ error: toWireError(error), loading: false });
        }
      },
      update: (input) => change(() => client.call('settings.update', input)),
      grantPath: (path) => change(() => client.call('settings.grant_path', { path })),
      revokePath: (path) => change(() => client.call('settings.revoke_path', { path })),
      setTranscriptionKey: (apiKey) => change(() => client.call('settings.set_transcription_key', { api_key: apiKey })),
      dismiss() {
        set({ error: null, message: null });
      },
    };
  });
}
