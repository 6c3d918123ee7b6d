import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type CatalogEntry = OutputOf<'plugins.catalog'>['plugins'][number];
export type PluginState = OutputOf<'plugins.status'>['plugins'][number];
export type ConfigKey = OutputOf<'plugins.config'>['keys'][number];
export type ComputerState = OutputOf<'computer.status'>;
export type DoctorCheck = OutputOf<'system.doctor'>['checks'][number];
export interface InstallProgress {
  phase: 'download' | 'verify' | 'extract' | 'activate' | 'done';
  bytes: number;
  total: number;
}
/** The health check's verdict on the last key entered, per plugin: what the key form shows. */
export interface KeyVerdict {
  ok: boolean;
  text: string;
}

export interface PluginsState {
  catalog: CatalogEntry[];
  states: Record<string, PluginState>;
  trustDevKey: boolean;
  /** `[fermix_core.plugins] dev_local`: the folder, what loaded and what was refused (null when unset). */
  devLocal: OutputOf<'plugins.status'>['dev_local'] | null;
  loading: boolean;
  loaded: boolean;
  error: WireError | null;
  /** Per plugin: the running install's phase, or the error of the last action. */
  progress: Record<string, InstallProgress>;
  busy: Record<string, string>;
  errors: Record<string, WireError>;
  verdicts: Record<string, KeyVerdict>;
  config: Record<string, ConfigKey[]>;
  computer: ComputerState | null;
  /** Doctor's computer-use row: the native layer check (display, idle time, OS permissions). */
  computerCheck: DoctorCheck | null;
  load(): Promise<void>;
  install(name: string): Promise<void>;
  setEnabled(name: string, enabled: boolean): Promise<void>;
  setSecret(name: string, value: string): Promise<boolean>;
  clearSecret(name: string): Promise<void>;
  loadConfig(name: string): Promise<void>;
  setConfig(name: string, key: string, value: string): Promise<boolean>;
  recheck(name: string): Promise<void>;
  checkComputer(): Promise<void>;
  /** computer.set_enabled: writes config.toml; the daemon applies it on its next start. */
  setComputerEnabled(enabled: boolean): Promise<void>;
  /** system.restart, then waits for the daemon to answer again and reloads the card. */
  restartDaemon(): Promise<void>;
  setOAuthClient(name: string, provider: 'google' | 'github' | 'notion' | 'x' | 'slack' | 'tesla', clientId: string, clientSecret: string): Promise<boolean>;
  /** Starts the sign-in, opens the provider's page in a new tab, and waits for the loopback redirect. */
  connect(name: string): Promise<void>;
  /** The sign-in page of a running connect, shown as a link in case the new tab was blocked. */
  authUrls: Record<string, string>;
  applyProgress(payload: { plugin: string } & InstallProgress): void;
}

const omit = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const next = { ...record };
  delete next[key];
  return next;
};

export function createPluginsStore(client: ApiClient): StoreApi<PluginsState> {
  return createStore<PluginsState>()((set, get) => {
    const refreshStates = async () => {
      const { plugins, dev_local } = await client.call('plugins.status');
      set({ states: Object.fromEntries(plugins.map((state) => [state.name, state])), devLocal: dev_local ?? null });
    };
    /** One action on one plugin: marks it busy, keeps its error on the card, and re-reads readiness. */
    const act = async (name: string, label: string, run: () => Promise<unknown>): Promise<boolean> => {
      set({ busy: { ...get().busy, [name]: label }, errors: omit(get().errors, name) });
      try {
        await run();
        await refreshStates();
        const catalog = await client.call('plugins.catalog');
        set({ catalog: catalog.plugins });
        return true;
      } catch (error) {
        set({ errors: { ...get().errors, [name]: toWireError(error) } });
        await refreshStates().catch(() => {});
        return false;
      } finally {
        set({ busy: omit(get().busy, name), progress: omit(get().progress, name) });
      }
    };
    return {
      catalog: [],
      states: {},
      trustDevKey: false,
      devLocal: null,
      loading: false,
      loaded: false,
      error: null,
      progress: {},
      busy: {},
      errors: {},
      verdicts: {},
      config: {},
      computer: null,
      computerCheck: null,
      authUrls: {},
      setOAuthClient: (name, provider, clientId, clientSecret) => act(name, 'Saving the client…', () => client.call('plugins.oauth_client.set', { provider, client_id: clientId, client_secret: clientSecret })),
      connect: async (name) => {
        await act(name, 'Waiting for the sign-in…', async () => {
          const started = await client.call('plugins.oauth_login.start', { name });
          set({ authUrls: { ...get().authUrls, [name]: started.url } });
          window.open(started.url, '_blank', 'noopener');
          try {
            await client.call('plugins.oauth_login.wait', { name });
          } finally {
            set({ authUrls: omit(get().authUrls, name) });
          }
        });
      },
      async load() {
        set({ loading: true });
        try {
          const [catalog, status, computer] = await Promise.all([client.call('plugins.catalog'), client.call('plugins.status'), client.call('computer.status')]);
          set({
            catalog: catalog.plugins,
            trustDevKey: catalog.trust_dev_key,
            states: Object.fromEntries(status.plugins.map((state) => [state.name, state])),
            devLocal: status.dev_local ?? null,
            computer,
            loading: false,
            loaded: true,
            error: null,
          });
        } catch (error) {
          set({ loading: false, loaded: true, error: toWireError(error) });
        }
      },
      install: async (name) => {
        await act(name, 'Installing…', () => client.call('plugins.install', { name }));
      },
      setEnabled: async (name, enabled) => {
        await act(name, enabled ? 'Enabling…' : 'Disabling…', () => client.call(enabled ? 'plugins.enable' : 'plugins.disable', { name }));
      },
      async setSecret(name, value) {
        set({ verdicts: omit(get().verdicts, name) });
        let verdict: KeyVerdict | null = null;
        const ok = await act(name, 'Checking the key…', async () => {
          const result = await client.call('plugins.set_secret', { name, value });
          verdict = { ok: true, text: result.checked ? `Key accepted by the health check${result.account ? ` (signed in as ${result.account})` : ''} and stored in the secret store.` : 'Key stored in the secret store (this plugin declares no health check).' };
        });
        const error = get().errors[name];
        // The rejection is the verdict: it goes beside the key field rather than on the card.
        if (!ok && error) set({ errors: omit(get().errors, name), verdicts: { ...get().verdicts, [name]: { ok: false, text: error.message } } });
        else if (verdict) set({ verdicts: { ...get().verdicts, [name]: verdict } });
        return ok;
      },
      clearSecret: async (name) => {
        await act(name, 'Removing the key…', () => client.call('plugins.clear_secret', { name }));
        set({ verdicts: omit(get().verdicts, name) });
      },
      async loadConfig(name) {
        try {
          const { keys } = await client.call('plugins.config', { name });
          set({ config: { ...get().config, [name]: keys } });
        } catch (error) {
          set({ errors: { ...get().errors, [name]: toWireError(error) } });
        }
      },
      async setConfig(name, key, value) {
        const ok = await act(name, 'Saving…', () => client.call('plugins.config_set', { name, key, value }));
        if (ok) await get().loadConfig(name);
        return ok;
      },
      recheck: async (name) => {
        await act(name, 'Checking…', () => client.call('plugins.reload'));
      },
      async checkComputer() {
        set({ busy: { ...get().busy, computer_use: 'Checking…' } });
        try {
          const [computer, doctor] = await Promise.all([client.call('computer.status'), client.call('system.doctor')]);
          set({ computer, computerCheck: doctor.checks.find((check) => check.id === 'computer_use_permissions') ?? null, errors: omit(get().errors, 'computer_use') });
        } catch (error) {
          set({ errors: { ...get().errors, computer_use: toWireError(error) } });
        } finally {
          set({ busy: omit(get().busy, 'computer_use') });
        }
      },
      async setComputerEnabled(enabled) {
        set({ busy: { ...get().busy, computer_use: enabled ? 'Enabling…' : 'Disabling…' } });
        try {
          const { native, ...computer } = await client.call('computer.set_enabled', { enabled });
          set({ computer, computerCheck: native && !native.available ? { id: 'computer_use_permissions', title: 'Computer use', status: 'FAIL', detail: native.detail, fix: '' } : get().computerCheck, errors: omit(get().errors, 'computer_use') });
        } catch (error) {
          set({ errors: { ...get().errors, computer_use: toWireError(error) } });
        } finally {
          set({ busy: omit(get().busy, 'computer_use') });
        }
      },
      async restartDaemon() {
        set({ busy: { ...get().busy, computer_use: 'Restarting…' } });
        try {
          const { pid } = await client.call('system.restart');
          // The successor listens on the same port; the window's session cookie survives the restart.
          const deadline = Date.now() + 30_000;
          for (;;) {
            await new Promise((resolve) => setTimeout(resolve, 250));
            try {
              const status = await client.call('system.status');
              if (status.pid !== pid) break;
            } catch (error) {
              if (Date.now() > deadline) throw error;
            }
            if (Date.now() > deadline) throw new Error('The daemon did not come back within 30 s; run `fermix status`.');
          }
          set({ computer: await client.call('computer.status'), computerCheck: null, errors: omit(get().errors, 'computer_use') });
        } catch (error) {
          set({ errors: { ...get().errors, computer_use: toWireError(error) } });
        } finally {
          set({ busy: omit(get().busy, 'computer_use') });
        }
      },
      applyProgress(payload) {
        if (!get().busy[payload.plugin]) return;
        set({ progress: { ...get().progress, [payload.plugin]: { phase: payload.phase, bytes: payload.bytes, total: payload.total } } });
      },
    };
  });
}
