/**
 * memory_recall (reference §2.7, §4): by key, a listing, or a search over memories and/or past
 * conversation history, `scope current|owner|all`, `source memories|history|all`, limit 10.
 *
 * Who sees what (decided here, once):
 * - operator, scope current: this conversation's memories plus the owner's and the agent's; history of
 *   this conversation. owner: owner and agent memories; history of every conversation. all: every
 *   memory (every conversation's too) and every conversation's history.
 * - guest: only memories kept in the current conversation, whatever scope it asks for, and no history
 *   outside it (guests are never sent the owner's memory).
 * - a scheduled job: only its own `job:self` memories, and no history.
 */
import { FermixError, isFermixError } from '../core/errors.js';
import { DEFAULT_AGENT_ID, DEFAULT_OWNER_ID, type AdmissionContext, type MemoryRow, type Scope } from './admission.js';
import type { HistoryHit, MemoryStore } from './store.js';

export const RECALL_LIMIT = 10;

export interface RecallArgs {
  key?: string;
  search?: string;
  scope?: 'current' | 'owner' | 'all';
  source?: 'memories' | 'history' | 'all';
}

export interface RecalledMemory {
  id: number;
  key: string;
  value: string;
  category: string;
  scope: string;
  confidence: number;
  written_by: string;
  updated_at: string;
}

export interface RecallResult {
  mode: 'key' | 'list' | 'search';
  memories: RecalledMemory[];
  history: HistoryHit[];
}

function needConversation(): FermixError {
  return new FermixError({
    code: 'missing_context',
    message: 'memory_recall with scope "current" needs a conversation, and this call has none.',
    hint: 'Pass scope "owner" or "all" (e.g. `fermix memory list` does), or call it from a chat turn.',
  });
}

/** The memory scopes (undefined = all of them) and the history a caller may read. */
export function visibility(scope: RecallArgs['scope'], context: AdmissionContext): { scopes: Scope[] | undefined; history: 'none' | 'conversation' | 'all' } {
  const conversation = context.conversationId ? [{ type: 'conversation' as const, id: context.conversationId }] : [];
  if (context.origin === 'job') {
    if (!context.conversationId) throw needConversation();
    return { scopes: [{ type: 'job', id: context.conversationId }], history: 'none' };
  }
  if (context.trust !== 'operator') {
    if (!context.conversationId) throw needConversation();
    return { scopes: conversation, history: 'conversation' };
  }
  const ownerAndAgent: Scope[] = [{ type: 'owner', id: DEFAULT_OWNER_ID }, { type: 'agent', id: DEFAULT_AGENT_ID }];
  if (scope === 'all') return { scopes: undefined, history: 'all' };
  if (scope === 'owner') return { scopes: ownerAndAgent, history: 'all' };
  if (!context.conversationId) throw needConversation();
  return { scopes: [...conversation, ...ownerAndAgent], history: 'conversation' };
}

export function toRecalled(row: MemoryRow): RecalledMemory {
  return { id: row.id, key: row.key, value: row.value, category: row.category, scope: row.scope_type === 'owner' || row.scope_type === 'agent' ? row.scope_type : `${row.scope_type}:${row.scope_id}`, confidence: row.confidence, written_by: row.written_by, updated_at: row.updated_at };
}

export function recall(store: MemoryStore, args: RecallArgs, context: AdmissionContext): RecallResult {
  const { scopes, history } = visibility(args.scope ?? 'current', context);
  const source = args.source ?? 'memories';
  const key = typeof args.key === 'string' ? args.key.trim() : '';
  if (key !== '') {
    const row = scopes === undefined ? store.list().find((each) => each.key === key) : store.findByKey(scopes, key);
    if (!row) {
      throw new FermixError({ code: 'not_found', message: `No stored memory has the key "${key}".`, hint: 'Search instead: memory_recall {"search": "<words>"}, or list with memory_recall {}.', data: { key } });
    }
    return { mode: 'key', memories: [toRecalled(row)], history: [] };
  }
  const text = typeof args.search === 'string' ? args.search.trim() : '';
  if (text === '') {
    // A listing: with the default scope, this conversation's own memories (plus owner/agent ones for the owner).
    return { mode: 'list', memories: store.list({ scopes, limit: scopes === undefined ? 200 : RECALL_LIMIT * 5 }).map(toRecalled), history: [] };
  }
  let memories: MemoryRow[] = [];
  let hits: HistoryHit[] = [];
  try {
    if (source !== 'history') memories = store.search(text, { scopes, limit: RECALL_LIMIT }) ?? [];
    if (source !== 'memories' && history !== 'none') {
      hits = store.searchHistory(text, { conversationId: history === 'conversation' ? context.conversationId : undefined, limit: RECALL_LIMIT }) ?? [];
    }
  } catch (error) {
    if (isFermixError(error)) throw error;
    throw new FermixError({ code: 'search_failed', message: `The memory search failed: ${(error as Error).message}.`, hint: 'Try simpler words; `fermix doctor` checks the database.', cause: error });
  }
  if (memories.length === 0 && hits.length === 0) {
    const where = source === 'memories' ? 'stored memories' : source === 'history' ? 'past conversations' : 'stored memories or past conversations';
    const jobNote = context.origin === 'job' && source !== 'memories' ? ' (a scheduled job cannot read conversation history)' : '';
    throw new FermixError({ code: 'not_found', message: `Nothing in ${where} matched "${text}"${jobNote}.`, hint: 'Try other words, or widen the search with scope "all" and source "all".', data: { search: text, scope: args.scope ?? 'current', source } });
  }
  return { mode: 'search', memories: memories.slice(0, RECALL_LIMIT).map(toRecalled), history: hits.slice(0, RECALL_LIMIT) };
}
