/**
 * The deterministic admission pipeline for memory_store (reference §2.7 "Admission pipeline"): no model
 * is asked; the same candidate in the same context always gets the same answer. Pure: the store passes
 * in the rows it found, so this file can be tested without a database.
 *
 * Six-category model (the newer reference docs): identity, preference, interest, goal (USER.md) and
 * context, directive (MEMORY.md). The older pipeline's "instruction" is our `directive`; its
 * "correction" is a write that replaces an existing memory's value. Guests may write neither.
 */
import { FermixError } from '../core/errors.js';
import type { Origin, Trust } from '../core/capabilities/capability.js';

export const MEMORY_CATEGORIES = ['identity', 'preference', 'interest', 'goal', 'context', 'directive'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];
export const OWNER_CATEGORIES: ReadonlySet<string> = new Set(['identity', 'preference', 'interest', 'goal']);

export const SCOPE_TYPES = ['owner', 'agent', 'conversation', 'job'] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

/** Reference §2.7 "Defaults (Memory.Config)". */
export const MIN_CONFIDENCE = 0.75;
export const DEFAULT_OWNER_ID = 'default';
export const DEFAULT_AGENT_ID = 'main';

export interface MemoryCandidate {
  key?: unknown;
  value?: unknown;
  category?: unknown;
  scope?: unknown;
  /** How sure the writer is; an explicit memory_store call without one counts as certain (1). */
  confidence?: unknown;
}

export interface AdmissionContext {
  trust: Trust;
  origin: Origin;
  conversationId?: string;
}

export interface MemoryRow {
  id: number;
  agent_id: string;
  scope_type: ScopeType;
  scope_id: string;
  key: string;
  value: string;
  category: MemoryCategory;
  confidence: number;
  promote_target: 'user_md' | 'memory_md' | 'none';
  written_by: Trust;
  source_type: string;
  source_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface Scope {
  type: ScopeType;
  id: string;
}

export type Admission =
  | { action: 'insert' | 'update'; row: Omit<MemoryRow, 'id' | 'created_at' | 'updated_at'>; replaces?: MemoryRow }
  | { action: 'unchanged'; existing: MemoryRow };

function refused(reason: string, message: string, hint: string, data: Record<string, unknown> = {}): FermixError {
  return new FermixError({ code: 'store_failed', message, hint, data: { reason, ...data } });
}

function missingContext(): FermixError {
  return new FermixError({
    code: 'missing_context',
    message: 'memory_store needs a conversation to keep a conversation-scoped memory in.',
    hint: 'Call it from a chat turn, or pass scope "owner" or "agent" (`fermix ask` runs a turn with a conversation).',
  });
}

/** The job scope is a scheduled run's own; `job:<id>` is keyed by the run's conversation id. */
export function scopeOf(type: ScopeType, context: AdmissionContext): Scope | null {
  if (type === 'owner') return { type, id: DEFAULT_OWNER_ID };
  if (type === 'agent') return { type, id: DEFAULT_AGENT_ID };
  return context.conversationId ? { type, id: context.conversationId } : null;
}

/** Step 3: the scope a candidate goes to. A guest (a shared chat) gets agent or conversation only. */
export function resolveScope(category: MemoryCategory, requested: string | undefined, context: AdmissionContext): ScopeType {
  if (context.origin === 'job') return 'job';
  if (context.trust !== 'operator') return requested === 'agent' ? 'agent' : 'conversation';
  if (requested === 'owner' || requested === 'agent' || requested === 'conversation') return requested;
  return OWNER_CATEGORIES.has(category) ? 'owner' : 'conversation';
}

/** Step 7: where the memory would be promoted (USER.md / MEMORY.md); job memories stay with their job. */
export function promoteTarget(category: MemoryCategory, scope: ScopeType): MemoryRow['promote_target'] {
  if (scope === 'job') return 'none';
  return OWNER_CATEGORIES.has(category) ? 'user_md' : 'memory_md';
}

/**
 * Steps 1–8. `findExisting(scopes, key)` returns the first row with that key among the scopes, in order:
 * an unscoped write of a key the caller already has is a correction of that row (step 4).
 */
export function admit(candidate: MemoryCandidate, context: AdmissionContext, findExisting: (scopes: Scope[], key: string) => MemoryRow | undefined): Admission {
  // 1. Normalize.
  const key = typeof candidate.key === 'string' ? candidate.key.trim() : '';
  const value = typeof candidate.value === 'string' ? candidate.value.trim() : '';
  if (key === '' || value === '') {
    throw new FermixError({
      code: 'missing_parameters',
      message: `memory_store needs a non-empty ${key === '' ? 'key' : 'value'}.`,
      hint: 'Call memory_store again with both `key` and `value` set, e.g. {"key": "timezone", "value": "Europe/Lisbon"}.',
      data: { field: key === '' ? 'key' : 'value' },
    });
  }
  const rawCategory = candidate.category === undefined ? 'context' : candidate.category;
  if (typeof rawCategory !== 'string' || !(MEMORY_CATEGORIES as readonly string[]).includes(rawCategory)) {
    throw refused('invalid_category', `${JSON.stringify(rawCategory)} is not a memory category.`, `Use one of: ${MEMORY_CATEGORIES.join(', ')}.`);
  }
  let category = rawCategory as MemoryCategory;
  // 2. Confidence.
  const confidence = candidate.confidence === undefined ? 1 : candidate.confidence;
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < MIN_CONFIDENCE || confidence > 1) {
    throw refused('low_confidence', `A memory needs a confidence of at least ${MIN_CONFIDENCE} (got ${String(confidence)}).`, 'Store only what the owner actually stated; ask them to confirm first when unsure.', { confidence });
  }
  // 8 (checked early, so nothing about the owner's rows is revealed to a guest): no instructions from guests.
  if (context.trust !== 'operator' && category === 'directive') {
    throw refused('guest_instruction', 'A guest may not store directives (instructions for the agent).', 'Only the owner can give the agent standing instructions; ask them to store it.');
  }
  const requested = typeof candidate.scope === 'string' ? candidate.scope : undefined;
  // 3. Scope.
  const scopeType = resolveScope(category, requested, context);
  const scope = scopeOf(scopeType, context);
  if (scope === null) throw missingContext();
  // 4. Corrections inherit the existing row's scope and category.
  const searchScopes: Scope[] = [scope];
  if (requested === undefined && context.trust === 'operator' && context.origin !== 'job') {
    for (const type of ['conversation', 'owner', 'agent'] as const) {
      const other = scopeOf(type, context);
      if (other && !(other.type === scope.type && other.id === scope.id)) searchScopes.push(other);
    }
  }
  const existing = findExisting(searchScopes, key);
  let target = scope;
  if (existing) {
    // 5. Skip when nothing changed.
    if (existing.value === value) return { action: 'unchanged', existing };
    if (context.trust !== 'operator') {
      throw refused('guest_correction', `A guest may not change the stored memory "${key}".`, 'Only the owner can correct a stored memory; ask them to.', { key });
    }
    target = { type: existing.scope_type, id: existing.scope_id };
    category = existing.category;
  }
  // 6. De-duplicated by (agent, scope_type, scope_id, key): the store upserts on exactly that.
  const row = {
    agent_id: DEFAULT_AGENT_ID,
    scope_type: target.type,
    scope_id: target.id,
    key,
    value,
    category,
    confidence,
    promote_target: promoteTarget(category, target.type),
    written_by: context.trust,
    source_type: context.origin === 'job' ? 'job' : context.conversationId ? 'conversation' : 'cli',
    source_id: context.conversationId ?? null,
  };
  return existing ? { action: 'update', row, replaces: existing } : { action: 'insert', row };
}
