import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type Skill = OutputOf<'skills.list'>['skills'][number];
export type SkillView = OutputOf<'skills.view'>;
export type ReloadReport = OutputOf<'skills.reload'>;

export interface SkillsState {
  skills: Skill[];
  /** Load errors of the last reload: a bad SKILL.md is skipped, never fatal. */
  loadErrors: string[];
  selected: string | null;
  /** The open skill's SKILL.md, or one of its reference files. */
  view: SkillView | null;
  /** The open skill's reference file names (from its SKILL.md view; a reference view has none). */
  references: string[];
  report: ReloadReport | null;
  loading: boolean;
  reloading: boolean;
  error: WireError | null;
  load(): Promise<void>;
  select(name: string, file?: string): Promise<void>;
  reload(): Promise<void>;
  /** skills.create; resolves to the error to show next to the form, or null when the skill was created. */
  create(name: string, description: string): Promise<WireError | null>;
}

/** The Skills screen's store; created when the screen opens. */
export function createSkillsStore(client: ApiClient): StoreApi<SkillsState> {
  return createStore<SkillsState>()((set, get) => ({
    skills: [],
    loadErrors: [],
    selected: null,
    view: null,
    references: [],
    report: null,
    loading: false,
    reloading: false,
    error: null,
    async load() {
      set({ loading: true });
      try {
        const { skills, errors } = await client.call('skills.list', {});
        set({ skills, loadErrors: errors, error: null });
        const keep = skills.some((skill) => skill.name === get().selected) ? get().selected : (skills[0]?.name ?? null);
        if (keep) await get().select(keep);
        else set({ selected: null, view: null, references: [] });
      } catch (error) {
        set({ error: toWireError(error) });
      } finally {
        set({ loading: false });
      }
    },
    async select(name, file) {
      if (name !== get().selected) set({ selected: name, view: null, references: [] });
      try {
        const view = await client.call('skills.view', file === undefined ? { name } : { name, file });
        if (get().selected !== name) return;
        set({ view, error: null, ...(file === undefined ? { references: view.references ?? [] } : {}) });
      } catch (error) {
        set({ error: toWireError(error) });
      }
    },
    async reload() {
      set({ reloading: true });
      try {
        const report = await client.call('skills.reload', {});
        set({ report, error: null });
        await get().load();
      } catch (error) {
        set({ error: toWireError(error) });
      } finally {
        set({ reloading: false });
      }
    },
    async create(name, description) {
      try {
        const result = await client.call('skills.create', { name, description });
        set({ report: result.reload, selected: name });
        await get().load();
        return null;
      } catch (error) {
        return toWireError(error);
      }
    },
  }));
}
