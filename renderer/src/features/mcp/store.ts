import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InputOf, OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type McpServer = OutputOf<'mcp.list'>['servers'][number];
export type McpTool = OutputOf<'mcp.tools'>['tools'][number];
export type AddServerInput = InputOf<'mcp.add'>;

/** mcp.* has no events (decision 0020): the open section polls mcp.list at this pace. */
export const POLL_MS = 1500;

export interface McpState {
  servers: McpServer[];
  loaded: boolean;
  error: WireError | null;
  tools: Record<string, McpTool[]>;
  logs: Record<string, string[]>;
  busy: Record<string, string>;
  errors: Record<string, WireError>;
  /** The authorization URL of a sign-in in progress, per server (shown as a link in case no browser opened). */
  authUrls: Record<string, string>;
  load(): Promise<void>;
  /** OAuth sign-in of a `needs_auth` server: opens the authorization page, waits until it connected. */
  signIn(name: string): Promise<void>;
  add(input: AddServerInput): Promise<boolean>;
  setEnabled(name: string, enabled: boolean): Promise<void>;
  restart(name: string): Promise<void>;
  remove(name: string): Promise<void>;
  loadDetails(name: string): Promise<void>;
  setHidden(name: string, tool: string, hidden: boolean): Promise<void>;
  answerPins(name: string, decision: 'repin' | 'block'): Promise<void>;
  clearError(name: string): void;
}

const omit = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const next = { ...record };
  delete next[key];
  return next;
};

export function createMcpStore(client: ApiClient): StoreApi<McpState> {
  return createStore<McpState>()((set, get) => {
    const act = async (name: string, label: string, run: () => Promise<unknown>): Promise<boolean> => {
      set({ busy: { ...get().busy, [name]: label }, errors: omit(get().errors, name) });
      try {
        await run();
        return true;
      } catch (error) {
        set({ errors: { ...get().errors, [name]: toWireError(error) } });
        return false;
      } finally {
        set({ busy: omit(get().busy, name) });
        await get().load();
      }
    };
    return {
      servers: [],
      loaded: false,
      error: null,
      tools: {},
      logs: {},
      busy: {},
      errors: {},
      authUrls: {},
      signIn: async (name) => {
        await act(name, 'Waiting for the sign-in…', async () => {
          const started = await client.call('mcp.auth_login.start', { name });
          set({ authUrls: { ...get().authUrls, [name]: started.url } });
          window.open(started.url, '_blank', 'noopener');
          try {
            await client.call('mcp.auth_login.wait', { name });
          } finally {
            set({ authUrls: omit(get().authUrls, name) });
          }
        });
      },
      async load() {
        try {
          const { servers } = await client.call('mcp.list');
          set({ servers, loaded: true, error: null });
        } catch (error) {
          set({ loaded: true, error: toWireError(error) });
        }
      },
      add: (input) => act('(new)', 'Adding…', () => client.call('mcp.add', input)),
      setEnabled: async (name, enabled) => {
        await act(name, enabled ? 'Enabling…' : 'Disabling…', () => client.call('mcp.set_enabled', { name, enabled }));
      },
      restart: async (name) => {
        await act(name, 'Restarting…', () => client.call('mcp.restart', { name }));
      },
      remove: async (name) => {
        await act(name, 'Removing…', () => client.call('mcp.remove', { name }));
        set({ tools: omit(get().tools, name), logs: omit(get().logs, name) });
      },
      async loadDetails(name) {
        // Each half shows on its own: a log that cannot be read must not hide the tools.
        const [tools, logs] = await Promise.allSettled([client.call('mcp.tools', { name }), client.call('mcp.logs', { name, lines: 20 })]);
        if (tools.status === 'fulfilled') set({ tools: { ...get().tools, [name]: tools.value.tools } });
        if (logs.status === 'fulfilled') set({ logs: { ...get().logs, [name]: logs.value.lines } });
        const failed = tools.status === 'rejected' ? tools.reason : logs.status === 'rejected' ? logs.reason : null;
        if (failed) set({ errors: { ...get().errors, [name]: toWireError(failed) } });
      },
      setHidden: async (name, tool, hidden) => {
        await act(name, 'Saving…', () => client.call('mcp.set_tool_hidden', { name, tool, hidden }));
        await get().loadDetails(name);
      },
      answerPins: async (name, decision) => {
        await act(name, decision === 'repin' ? 'Accepting…' : 'Blocking…', () => client.call('mcp.pins_answer', { name, decision }));
        await get().loadDetails(name);
      },
      clearError: (name) => set({ errors: omit(get().errors, name) }),
    };
  });
}
