import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InputOf, OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type AuditRecord = OutputOf<'audit.query'>['records'][number];
export type AuditDecision = NonNullable<InputOf<'audit.query'>>['decision'];
export type SincePreset = 'hour' | 'day' | 'week' | 'month' | 'all';

export interface AuditFilters {
  capability: string;
  decision: AuditDecision | 'any';
  since: SincePreset;
}

export const AUDIT_PAGE = 500;

const SINCE_MS: Record<Exclude<SincePreset, 'all'>, number> = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 };

export function filterInput(filters: AuditFilters, now = Date.now()) {
  return {
    ...(filters.capability ? { capability: filters.capability } : {}),
    ...(filters.decision !== 'any' && filters.decision ? { decision: filters.decision } : {}),
    ...(filters.since !== 'all' ? { since: new Date(now - SINCE_MS[filters.since]).toISOString() } : {}),
  };
}

export interface AuditState {
  filters: AuditFilters;
  records: AuditRecord[];
  /** Capability names for the filter, from capabilities.list. */
  capabilities: string[];
  loading: boolean;
  exporting: boolean;
  error: WireError | null;
  loadedAt: string | null;
  load(): Promise<void>;
  setFilters(change: Partial<AuditFilters>): Promise<void>;
  /** The filtered trail as a file's text (the screen saves it). */
  exportAs(format: 'jsonl' | 'csv'): Promise<{ content: string; count: number } | null>;
}

export function createAuditStore(client: ApiClient): StoreApi<AuditState> {
  return createStore<AuditState>()((set, get) => ({
    filters: { capability: '', decision: 'any', since: 'all' },
    records: [],
    capabilities: [],
    loading: false,
    exporting: false,
    error: null,
    loadedAt: null,
    async load() {
      set({ loading: true });
      try {
        const [{ records }, capabilities] = await Promise.all([
          client.call('audit.query', { ...filterInput(get().filters), limit: AUDIT_PAGE }),
          get().capabilities.length ? Promise.resolve(null) : client.call('capabilities.list'),
        ]);
        set({
          records,
          loading: false,
          error: null,
          loadedAt: new Date().toISOString(),
          ...(capabilities ? { capabilities: capabilities.capabilities.map((each) => each.name).sort() } : {}),
        });
      } catch (error) {
        set({ error: toWireError(error), loading: false });
      }
    },
    async setFilters(change) {
      set({ filters: { ...get().filters, ...change } });
      await get().load();
    },
    async exportAs(format) {
      set({ exporting: true });
      try {
        const { content, count } = await client.call('audit.export', { ...filterInput(get().filters), format, limit: 100_000 });
        set({ exporting: false, error: null });
        return { content, count };
      } catch (error) {
        set({ exporting: false, error: toWireError(error) });
        return null;
      }
    },
  }));
}
