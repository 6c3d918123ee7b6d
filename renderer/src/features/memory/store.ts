import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InputOf, OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type Memory = OutputOf<'memory.list'>['memories'][number];
export type HistoryHit = OutputOf<'memory.search'>['history'][number];
export type SearchScope = 'owner' | 'all';
export type SearchSource = NonNullable<InputOf<'memory.search'>['source']>;

export interface MemoryState {
  memories: Memory[];
  history: HistoryHit[];
  /** The search the list shows, or null for every memory. */
  searched: { query: string; scope: SearchScope; source: SearchSource } | null;
  loading: boolean;
  /** The id whose Forget asks for confirmation. */
  confirming: number | null;
  forgotten: Memory | null;
  error: WireError | null;
  load(): Promise<void>;
  search(query: string, scope: SearchScope, source: SearchSource): Promise<void>;
  forget(memory: Memory): Promise<void>;
}

/** The Memory screen's store; created when the screen opens. */
export function createMemoryStore(client: ApiClient): StoreApi<MemoryState> {
  return createStore<MemoryState>()((set, get) => {
    const run = async (work: () => Promise<Partial<MemoryState>>) => {
      set({ loading: true });
      try {
        set({ ...(await work()), error: null });
      } catch (error) {
        set({ error: toWireError(error) });
      } finally {
        set({ loading: false });
      }
    };
    return {
      memories: [],
      history: [],
      searched: null,
      loading: false,
      confirming: null,
      forgotten: null,
      error: null,
      load: () => run(async () => ({ memories: (await client.call('memory.list', {})).memories, history: [], searched: null })),
      search: (query, scope, source) =>
        query.trim() === ''
          ? get().load()
          : run(async () => {
              const result = await client.call('memory.search', { query, scope, source });
              return { memories: result.memories, history: result.history, searched: { query, scope, source } };
            }),
      async forget(memory) {
        try {
          await client.call('memory.forget', { target: String(memory.id) });
          set((state) => ({ memories: state.memories.filter((each) => each.id !== memory.id), confirming: null, forgotten: memory, error: null }));
        } catch (error) {
          set({ error: toWireError(error), confirming: null });
        }
      },
    };
  });
}
