import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InputOf, OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type SettingsView = OutputOf<'settings.get'>;
export type SettingsUpdate = InputOf<'settings.update'>;

/**
 * Which control an answer belongs to, so its "Saved" (or its error) shows next to that button rather than
 * at the top of a long page: 'permission-mode', 'sandbox-mode', 'grant', 'revoke', 'transcription', 'transcription-key'.
 */
export type SettingsOrigin = 'permission-mode' | 'sandbox-mode' | 'grant' | 'revoke' | 'transcription' | 'transcription-key' | 'load';

export interface SettingsFeedback {
  origin: SettingsOrigin;
  message: string | null;
  error: WireError | null;
}

export interface SettingsState {
  settings: SettingsView | null;
  loading: boolean;
  busy: boolean;
  /** The last answer, tagged with the control it belongs to; cleared when Settings opens or the section changes. */
  feedback: SettingsFeedback | null;
  load(): Promise<void>;
  update(change: SettingsUpdate, origin: SettingsOrigin): Promise<boolean>;
  grantPath(path: string): Promise<boolean>;
  revokePath(path: string): Promise<boolean>;
  setTranscriptionKey(apiKey: string): Promise<boolean>;
  dismiss(): void;
}

/** Settings → permissions, sandbox and transcription (providers are providers/store.ts). */
export function createSettingsStore(client: ApiClient): StoreApi<SettingsState> {
  return createStore<SettingsState>()((set) => {
    const change = async (origin: SettingsOrigin, work: () => Promise<SettingsView & { message: string }>): Promise<boolean> => {
      set({ busy: true, feedback: null });
      try {
        const { message, ...settings } = await work();
        set({ settings, feedback: { origin, message, error: null }, busy: false });
        return true;
      } catch (error) {
        set({ feedback: { origin, message: null, error: toWireError(error) }, busy: false });
        return false;
      }
    };
    return {
      settings: null,
      loading: false,
      busy: false,
      feedback: null,
      async load() {
        set({ loading: true });
        try {
          set({ settings: await client.call('settings.get'), loading: false });
        } catch (error) {
          set({ feedback: { origin: 'load', message: null, error: toWireError(error) }, loading: false });
        }
      },
      update: (input, origin) => change(origin, () => client.call('settings.update', input)),
      grantPath: (path) => change('grant', () => client.call('settings.grant_path', { path })),
      revokePath: (path) => change('revoke', () => client.call('settings.revoke_path', { path })),
      setTranscriptionKey: (apiKey) => change('transcription-key', () => client.call('settings.set_transcription_key', { api_key: apiKey })),
      dismiss() {
        set({ feedback: null });
      },
    };
  });
}
