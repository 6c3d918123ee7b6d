/**
 * The memory service the composition root puts in `context.services.memory`: admission + store for
 * memory_store, recall for memory_recall, sources for memory_sources_list, the prompt block for the
 * request builder, and list/forget for `fermix memory`.
 */
import type { ExecutionContext, Origin, Trust } from '../core/capabilities/capability.js';
import { FermixError, isFermixError } from '../core/errors.js';
import type { Database } from '../store/database.js';
import { admit, type AdmissionContext, type MemoryCandidate, type MemoryRow } from './admission.js';
import type { InjectionFlag } from './injection-scan.js';
import { memoryPromptSection } from './prompt.js';
import { rebuildPromptFiles } from './prompt-files.js';
import { recall, toRecalled, type RecallArgs, type RecallResult, type RecalledMemory } from './recall.js';
import { createMemoryStore } from './store.js';

export const SOURCE_STATUSES = ['active', 'removed'] as const;
export const SOURCE_TYPES = ['conversation', 'job', 'cli'] as const;

export interface StoreOutcome {
  stored: boolean;
  action: 'insert' | 'update' | 'unchanged';
  memory: RecalledMemory;
  promote_target: MemoryRow['promote_target'];
}

export interface MemoryServiceOptions {
  db: Database;
  now?: () => Date;
  /**
   * A stored memory InjectionScan flagged (injection-scan.ts), once per memory and rule set per run —
   * the composition root logs it at warn as [:fermix,:security,:injection_scan]. It stays in the prompt, as data.
   */
  onInjectionFlag?: (flag: InjectionFlag) => void;
  /** `$FERMIX_HOME/memory/<agent>`: USER.md and MEMORY.md are rebuilt there after each write (prompt-files.ts). */
  promptFilesDir?: string;
  /** A rebuild that failed; the write itself stands (the database is canonical). */
  onPromptFilesError?: (error: unknown) => void;
}

export function createMemoryService(options: MemoryServiceOptions) {
  const store = createMemoryStore(options.db, options.now);
  const reported = new Set<string>();
  const report = (flag: InjectionFlag) => {
    const key = `${flag.memory_id}:${flag.rules.join(',')}`;
    if (reported.has(key)) return;
    reported.add(key);
    options.onInjectionFlag?.(flag);
  };
  const rebuild = () => {
    if (options.promptFilesDir === undefined) return;
    try {
      rebuildPromptFiles(store, options.promptFilesDir);
    } catch (error) {
      options.onPromptFilesError?.(error);
    }
  };
  // At start too: the files follow the database even after it was restored or edited by `fermix memory`.
  rebuild();
  return {
    store(candidate: MemoryCandidate, context: AdmissionContext): StoreOutcome {
      const admission = admit(candidate, context, (scopes, key) => store.findByKey(scopes, key));
      let row: MemoryRow;
      try {
        row = store.apply(admission);
      } catch (error) {
        if (isFermixError(error)) throw error;
        throw new FermixError({ code: 'store_failed', message: `The memory could not be written: ${(error as Error).message}.`, hint: 'Run `fermix doctor` to check the database.', data: { reason: 'backend' }, cause: error });
      }
      if (admission.action !== 'unchanged') rebuild();
      return { stored: admission.action !== 'unchanged', action: admission.action, memory: toRecalled(row), promote_target: row.promote_target };
    },
    recall(args: RecallArgs, context: AdmissionContext): RecallResult {
      return recall(store, args, context);
    },
    sources(filter: { status?: string; source_type?: string } = {}) {
      if (filter.status !== undefined && !(SOURCE_STATUSES as readonly string[]).includes(filter.status)) {
        throw new FermixError({ code: 'invalid_filter', message: `status ${JSON.stringify(filter.status)} is not a memory-source status.`, hint: `Use one of: ${SOURCE_STATUSES.join(', ')}.` });
      }
      if (filter.source_type !== undefined && !(SOURCE_TYPES as readonly string[]).includes(filter.source_type)) {
        throw new FermixError({ code: 'invalid_filter', message: `source_type ${JSON.stringify(filter.source_type)} is not a memory-source type.`, hint: `Use one of: ${SOURCE_TYPES.join(', ')}.` });
      }
      let rows;
      try {
        rows = store.sources();
      } catch (error) {
        throw new FermixError({ code: 'registry_failed', message: `The memory sources could not be read: ${(error as Error).message}.`, hint: 'Run `fermix doctor` to check the database.', cause: error });
      }
      return rows.filter((row) => (filter.status === undefined || row.status === filter.status) && (filter.source_type === undefined || row.source_type === filter.source_type));
    },
    promptSection(turn: { conversationId: string; trust: Trust; origin: Origin }): string {
      return memoryPromptSection(store, turn, report);
    },
    /** `fermix memory list`: every memory, newest first. */
    list(limit = 200): RecalledMemory[] {
      return store.list({ limit }).map(toRecalled);
    },
    /** `fermix memory forget ID|KEY`: by numeric id, else every memory with that key. */
    forget(target: string): RecalledMemory[] {
      const id = /^\d+$/.test(target) ? Number(target) : null;
      const removed = id !== null ? [store.forget(id)].filter((row): row is MemoryRow => row !== undefined) : store.forgetKey(target);
      if (removed.length === 0) {
        throw new FermixError({ code: 'not_found', message: `No stored memory has the ${id !== null ? 'id' : 'key'} ${target}.`, hint: '`fermix memory list` shows each memory with its id and key.', data: { target } });
      }
      rebuild();
      return removed.map(toRecalled);
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;

/** `context.services.memory`, or `service_unavailable` when the composition root did not provide it. */
export function memoryServiceOf(context: ExecutionContext): MemoryService {
  const value = (context.services ?? {}).memory as Partial<MemoryService> | undefined;
  if (!value || typeof value.store !== 'function' || typeof value.recall !== 'function' || typeof value.sources !== 'function') {
    throw new FermixError({
      code: 'service_unavailable',
      message: 'The memory tools need the memory service, which this daemon did not provide.',
      hint: 'This is a wiring bug in the daemon (main/daemon/compose.ts); run `fermix doctor` and report it.',
      data: { service: 'memory' },
    });
  }
  return value as MemoryService;
}

/** The admission/recall context of one tool call. */
export function memoryContextOf(context: ExecutionContext): AdmissionContext {
  return { trust: context.trust, origin: context.origin, conversationId: context.conversationId };
}
