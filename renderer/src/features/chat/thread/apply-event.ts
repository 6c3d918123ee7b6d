/**
 * How one daemon event changes the thread. Pure: (thread, event) → thread, new arrays only where
 * something changed, so React re-renders just the rows that did. Used for live events and for
 * rebuilding a running turn from `events.replay` when a conversation is opened mid-turn.
 */
import type { EventEnvelope } from '../../../../../main/api/events.js';
import type { WireError } from '../../../../../main/core/errors.js';
import { FINISHED, type AlwaysCovers, type ApprovalScopeChoice, type ApprovalState, type DirectoryState, type Thread, type ThreadItem, type ToolImage, type TurnStatus } from './thread-types.js';
import { applySubagentEvent, type WorkerCardState } from '../items/worker-card-state.js';

type Payload = Record<string, any>;
type Item<K extends ThreadItem['kind']> = Extract<ThreadItem, { kind: K }>;

const turnOf = (item: ThreadItem): string | null => ('turnId' in item ? (item.turnId ?? null) : null);

export function lastIndexOfTurn(items: readonly ThreadItem[], turnId: string): number {
  for (let index = items.length - 1; index >= 0; index -= 1) if (turnOf(items[index]) === turnId) return index;
  return -1;
}

function findIndex(items: readonly ThreadItem[], test: (item: ThreadItem) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) if (test(items[index])) return index;
  return -1;
}

/** Inserts after the turn's last row, so a turn queued behind it keeps its place below. */
export function insertAfterTurn(items: ThreadItem[], turnId: string | null, item: ThreadItem): ThreadItem[] {
  const last = turnId === null ? -1 : lastIndexOfTurn(items, turnId);
  // Rows of a turn never go below its own turn-end line.
  const at = last === -1 ? items.length : items[last].kind === 'turn-end' ? last : last + 1;
  return [...items.slice(0, at), item, ...items.slice(at)];
}

function replaceAt(items: ThreadItem[], index: number, item: ThreadItem): ThreadItem[] {
  const next = [...items];
  next[index] = item;
  return next;
}

function updateWhere<K extends ThreadItem['kind']>(items: ThreadItem[], kind: K, test: (item: Item<K>) => boolean, change: (item: Item<K>) => Item<K>): ThreadItem[] {
  let changed = false;
  const next = items.map((item) => {
    if (item.kind !== kind || !test(item as Item<K>)) return item;
    changed = true;
    return change(item as Item<K>);
  });
  return changed ? next : items;
}

/** Ends the turn's streaming text: a tool call or the end of the turn comes next. */
function closeStreaming(items: ThreadItem[], turnId: string): ThreadItem[] {
  return updateWhere(items, 'assistant', (item) => item.turnId === turnId && item.streaming, (item) => ({ ...item, streaming: false }));
}

function ensureUser(items: ThreadItem[], turnId: string, time: string): ThreadItem[] {
  if (items.some((item) => item.kind === 'user' && item.turnId === turnId)) return items;
  // A message this window sent binds to the first turn queued after it (the daemon answers in order).
  const pending = items.findIndex((item) => item.kind === 'user' && item.pending && item.turnId === null);
  if (pending !== -1) return replaceAt(items, pending, { ...(items[pending] as Item<'user'>), turnId, pending: false });
  return [...items, { kind: 'user', key: `u:${turnId}`, turnId, text: null, time, reaction: null, pending: false, failed: null }];
}

export function toolItem(turnId: string, callId: string, name: string, requestedName: string, args: unknown): Item<'tool'> {
  return { kind: 'tool', key: `t:${turnId}:${callId}`, turnId, callId, name, requestedName, args, status: 'running', errorCode: null, preview: null, durationMs: null, images: [], startedAt: Date.now() };
}

export function approvalFromCard(card: unknown, fallback: { approvalId: string; capability: string; reason: string; turnId: string | null; callId: string | null }): Item<'approval'> {
  const raw = (card && typeof card === 'object' ? card : {}) as Payload;
  const covers = raw.always_covers as AlwaysCovers | undefined;
  return {
    kind: 'approval',
    key: `p:${fallback.approvalId}`,
    turnId: fallback.turnId,
    approvalId: fallback.approvalId,
    callId: fallback.callId,
    capability: typeof raw.capability === 'string' ? raw.capability : fallback.capability,
    reason: typeof raw.reason === 'string' ? raw.reason : fallback.reason,
    args: raw.args,
    alwaysCovers: covers && typeof covers.permission === 'string' ? covers : null,
    scopes: Array.isArray(raw.scopes) ? (raw.scopes as ApprovalScopeChoice[]).filter((scope) => typeof scope?.id === 'string' && typeof scope.words === 'string' && typeof scope.rule?.permission === 'string') : [],
    warning: typeof raw.warning === 'string' ? raw.warning : null,
    state: 'pending',
    error: null,
  };
}

function answerState(answer: string): ApprovalState {
  return answer === 'once' || answer === 'always' || answer === 'deny' ? answer : 'cancelled';
}

function setTurn(thread: Thread, turnId: string, status: TurnStatus): Record<string, TurnStatus> {
  const current = thread.turns[turnId];
  // A late or replayed event never reopens a finished turn.
  if (current && FINISHED.has(current) && !FINISHED.has(status)) return thread.turns;
  return current === status ? thread.turns : { ...thread.turns, [turnId]: status };
}

/** The turn that is running now (for attachments and reactions, which name no turn). */
export function runningTurn(thread: Thread): string | null {
  let found: string | null = null;
  for (const [turnId, status] of Object.entries(thread.turns)) if (status === 'running' || status === 'parked') found = turnId;
  return found;
}

export interface ApplyOptions {
  /** Rebuilding from a replay whose text is already shown: skip answer deltas. */
  skipDeltas?: boolean;
  /** The turn an attachment or reaction belongs to when replaying (the live default is the running turn). */
  turnHint?: string | null;
}

/** Applies an event of this conversation's stream, or a folder-grant settlement from the system stream. */
export function applyThreadEvent(thread: Thread, event: EventEnvelope, options: ApplyOptions = {}): Thread {
  if (event.stream === thread.conversationId) {
    if (event.seq <= thread.appliedSeq) return thread;
    const next = reduce(thread, event, options);
    return { ...next, appliedSeq: event.seq };
  }
  if (event.type === 'directory_access.settled' || event.type === 'approval.resolved') return reduce(thread, event, options);
  return thread;
}

function reduce(thread: Thread, event: EventEnvelope, options: ApplyOptions): Thread {
  const p = (event.payload ?? {}) as Payload;
  const items = thread.items;
  const turnId: string = typeof p.turn_id === 'string' ? p.turn_id : '';
  const withItems = (next: ThreadItem[], turns = thread.turns): Thread => (next === items && turns === thread.turns ? thread : { ...thread, items: next, turns });

  switch (event.type) {
    case 'chat.turn_queued':
      return withItems(ensureUser(items, turnId, event.time), thread.turns[turnId] ? thread.turns : { ...thread.turns, [turnId]: 'queued' });
    case 'chat.turn_started':
      return withItems(ensureUser(items, turnId, event.time), setTurn(thread, turnId, 'running'));
    case 'chat.delta': {
      if (options.skipDeltas || !p.text) return thread;
      const last = lastIndexOfTurn(items, turnId);
      const item = last === -1 ? undefined : items[last];
      if (item?.kind === 'assistant' && item.streaming) return withItems(replaceAt(items, last, { ...item, text: item.text + p.text }));
      return withItems(insertAfterTurn(items, turnId, { kind: 'assistant', key: `a:${event.seq}`, turnId, text: String(p.text), streaming: true }));
    }
    case 'chat.tool_call': {
      const closed = closeStreaming(items, turnId);
      const existing = closed.findIndex((item) => item.kind === 'tool' && item.turnId === turnId && item.callId === p.call_id);
      if (existing !== -1) return withItems(replaceAt(closed, existing, { ...(closed[existing] as Item<'tool'>), status: 'running', args: p.args }));
      return withItems(insertAfterTurn(closed, turnId, toolItem(turnId, p.call_id, p.name, p.requested_name, p.args)));
    }
    case 'chat.tool_result': {
      const finish = (item: Item<'tool'>): Item<'tool'> => ({
        ...item,
        status: p.ok ? 'ok' : p.error_code === 'cancelled' ? 'cancelled' : 'error',
        errorCode: p.error_code ?? null,
        preview: typeof p.preview === 'string' ? p.preview : null,
        durationMs: typeof p.duration_ms === 'number' ? p.duration_ms : null,
        images: Array.isArray(p.images) ? (p.images as ToolImage[]) : [],
      });
      const index = items.findIndex((item) => item.kind === 'tool' && item.turnId === turnId && item.callId === p.call_id);
      if (index !== -1) return withItems(replaceAt(items, index, finish(items[index] as Item<'tool'>)));
      return withItems(insertAfterTurn(closeStreaming(items, turnId), turnId, finish(toolItem(turnId, p.call_id, p.name, p.name, undefined))));
    }
    case 'chat.parked': {
      let next = closeStreaming(items, turnId);
      let toolIndex = next.findIndex((item) => item.kind === 'tool' && item.turnId === turnId && item.callId === p.call_id);
      if (toolIndex === -1) {
        next = insertAfterTurn(next, turnId, toolItem(turnId, p.call_id, p.capability, p.capability, undefined));
        toolIndex = lastIndexOfTurn(next, turnId);
      }
      next = replaceAt(next, toolIndex, { ...(next[toolIndex] as Item<'tool'>), status: 'parked' });
      const card = approvalFromCard(p.card, { approvalId: p.approval_id, capability: p.capability, reason: p.reason, turnId, callId: p.call_id });
      const existing = next.findIndex((item) => item.kind === 'approval' && item.approvalId === p.approval_id);
      const keep = existing === -1 ? null : (next[existing] as Item<'approval'>);
      if (existing !== -1) next = next.filter((_, index) => index !== existing);
      const at = next.findIndex((item) => item.kind === 'tool' && item.turnId === turnId && item.callId === p.call_id);
      const merged: Item<'approval'> = keep ? { ...card, state: keep.state, error: keep.error } : card;
      next = [...next.slice(0, at + 1), merged, ...next.slice(at + 1)];
      return withItems(next, setTurn(thread, turnId, 'parked'));
    }
    case 'chat.resumed': {
      let next = updateWhere(items, 'approval', (item) => item.approvalId === p.approval_id && (item.state === 'pending' || item.state === 'answering'), (item) => ({ ...item, state: answerState(p.answer) }));
      if (p.answer !== 'deny') next = updateWhere(next, 'tool', (item) => item.turnId === turnId && item.status === 'parked', (item) => ({ ...item, status: 'running' }));
      return withItems(next, setTurn(thread, turnId, 'running'));
    }
    case 'approval.requested': {
      if (items.some((item) => item.kind === 'approval' && item.approvalId === p.id)) return thread;
      const card = approvalFromCard(undefined, { approvalId: p.id, capability: p.capability, reason: p.summary, turnId: null, callId: null });
      return withItems([...items, card]);
    }
    case 'approval.resolved':
      return withItems(updateWhere(items, 'approval', (item) => item.approvalId === p.id, (item) => ({ ...item, state: answerState(p.answer), error: null })));
    case 'chat.warning':
      return withItems(insertAfterTurn(items, turnId, { kind: 'warning', key: `w:${event.seq}`, turnId, code: p.code, message: p.message }));
    case 'chat.turn_finished': {
      const finished = withItems(finishTurn(items, turnId, p, event.seq), setTurn(thread, turnId, p.status));
      // The daemon lets a pause lapse once the conversation has nothing left to run.
      const idle = Object.values(finished.turns).every((status) => FINISHED.has(status));
      return idle && finished.hold !== 'running' ? { ...finished, hold: 'running' } : finished;
    }
    case 'chat.turn_hold': {
      const state = p.state === 'pausing' || p.state === 'paused' ? p.state : 'running';
      // Held: the reply streamed so far is complete (no typing cursor while nothing is typing).
      const next = state === 'paused' ? withItems(closeStreaming(items, turnId)) : thread;
      return state === next.hold ? next : { ...next, hold: state };
    }
    case 'chat.attachment': {
      if (items.some((item) => item.kind === 'attachment' && item.id === p.id)) return thread;
      const owner = options.turnHint !== undefined ? options.turnHint : runningTurn(thread);
      return withItems(insertAfterTurn(items, owner, { kind: 'attachment', key: `f:${p.id}`, turnId: owner, id: p.id, filename: p.filename, mimeType: p.mime_type, fileKind: p.kind, bytes: p.bytes, caption: p.caption ?? null }));
    }
    case 'chat.subagent': {
      const card = p as unknown as WorkerCardState;
      const key = `w:${card.batch_id}`;
      const existing = items.findIndex((item) => item.key === key);
      if (existing !== -1) {
        const current = items[existing] as Item<'workers'>;
        return withItems(replaceAt(items, existing, { ...current, cards: applySubagentEvent(current.cards, card) }));
      }
      const item: Item<'workers'> = { kind: 'workers', key, turnId: card.turn_id, batchId: card.batch_id, cards: [card] };
      // Right under the subagents call that started them, else at the end of the turn.
      const call = findLastIndex(items, (each) => each.kind === 'tool' && each.turnId === card.turn_id && each.name === 'subagents');
      if (call !== -1) return withItems([...items.slice(0, call + 1), item, ...items.slice(call + 1)]);
      return withItems(insertAfterTurn(items, card.turn_id, item));
    }
    case 'chat.reaction': {
      const owner = options.turnHint !== undefined ? options.turnHint : runningTurn(thread);
      const index = findIndex(items, (item) => item.kind === 'user' && (owner === null || item.turnId === owner));
      if (index === -1) return thread;
      return withItems(replaceAt(items, index, { ...(items[index] as Item<'user'>), reaction: String(p.emoji) }));
    }
    case 'directory_access.requested':
      if (items.some((item) => item.kind === 'directory' && item.token === p.token)) return thread;
      return withItems([...items, { kind: 'directory', key: `d:${p.token}`, token: p.token, path: p.path, reason: p.reason, message: p.message, expiresAt: p.expires_at, state: 'pending', error: null }]);
    case 'directory_access.settled': {
      const state: DirectoryState = p.outcome === 'granted' || p.outcome === 'denied' || p.outcome === 'expired' ? p.outcome : 'expired';
      return withItems(updateWhere(items, 'directory', (item) => item.token === p.token, (item) => ({ ...item, state, error: null })));
    }
    default:
      return thread;
  }
}

function finishTurn(items: ThreadItem[], turnId: string, p: Payload, seq: number): ThreadItem[] {
  let next = closeStreaming(items, turnId);
  // A finished turn has no running tool and nobody waits on its approval cards any more.
  next = updateWhere(next, 'tool', (item) => item.turnId === turnId && (item.status === 'running' || item.status === 'parked'), (item) => ({ ...item, status: 'cancelled' }));
  next = updateWhere(next, 'approval', (item) => item.turnId === turnId && (item.state === 'pending' || item.state === 'answering'), (item) => ({ ...item, state: 'cancelled' }));
  const text = typeof p.text === 'string' ? p.text : '';
  if (text.trim()) {
    // The final answer is the text after the turn's last tool call: fill it in if deltas were missed.
    const lastTool = findIndex(next, (item) => item.kind === 'tool' && item.turnId === turnId);
    const answerIndex = findIndex(next, (item) => item.kind === 'assistant' && item.turnId === turnId);
    if (answerIndex === -1 || answerIndex < lastTool) {
      next = insertAfterTurn(next, turnId, { kind: 'assistant', key: `a:${seq}`, turnId, text, streaming: false });
    } else {
      // A notice said mid-answer splits the answer into pieces (ordered with the stream): compare them joined.
      const pieces = next.filter((item, index): item is Item<'assistant'> => item.kind === 'assistant' && item.turnId === turnId && index > lastTool);
      const before = pieces.slice(0, -1).map((piece) => piece.text).join('');
      const shown = before + (next[answerIndex] as Item<'assistant'>).text;
      if (shown.trim() !== text.trim() && text.length >= shown.length && text.startsWith(before)) {
        next = replaceAt(next, answerIndex, { ...(next[answerIndex] as Item<'assistant'>), text: text.slice(before.length) });
      }
    }
  }
  const end: Item<'turn-end'> = {
    kind: 'turn-end',
    key: `e:${turnId}`,
    turnId,
    status: p.status,
    usage: p.usage ?? { input_tokens: 0, output_tokens: 0 },
    costUsd: typeof p.cost_usd === 'number' ? p.cost_usd : null,
    provider: p.provider ?? null,
    model: p.model ?? null,
    error: (p.error as WireError | null) ?? null,
    stopReason: p.stop_reason ?? null,
  };
  const existing = next.findIndex((item) => item.kind === 'turn-end' && item.turnId === turnId);
  if (existing !== -1) return replaceAt(next, existing, end);
  return insertAfterTurn(next, turnId, end);
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i -= 1) if (predicate(items[i])) return i;
  return -1;
}
