/**
 * Builds the thread of a conversation from what the daemon stores (messages, turns with their tool calls,
 * pending approval and folder cards) plus `events.replay` for what is still happening. Pure.
 *
 * Messages carry no turn id, so each turn is matched to its user message by time: a turn writes its
 * message when it starts, turns start in order, so a message belongs to the earliest unmatched turn
 * created at or before it. Older messages (beyond the turn list) stay plain.
 */
import type { EventEnvelope } from '../../../../../main/api/events.js';
import { storedAttachments } from '../attachments/attachment-types.js';
import { applyThreadEvent, approvalFromCard } from './apply-event.js';
import { FINISHED, type Compaction, type PendingApproval, type PendingDirectory, type StoredMessage, type Thread, type ThreadItem, type TurnStatus, type TurnSummary } from './thread-types.js';

export interface ThreadSnapshot {
  conversationId: string;
  messages: StoredMessage[];
  /** Oldest first (as chat.turns returns them). */
  turns: TurnSummary[];
  approvals: PendingApproval[];
  directories: PendingDirectory[];
  replay: { events: EventEnvelope[]; latest_seq: number; complete: boolean };
  /** Compactions cut inside these messages (chat.history); each gets a marker after its last replaced message. */
  compactions?: Compaction[];
}

function compactionRow(compaction: Compaction): ThreadItem {
  return { kind: 'compaction', key: `c:${compaction.id}`, id: compaction.id, summary: compaction.summary, replaced: compaction.replaced_messages, reason: compaction.reason, createdAt: compaction.created_at };
}

function turnEnd(turn: TurnSummary): ThreadItem {
  return {
    kind: 'turn-end',
    key: `e:${turn.turn_id}`,
    turnId: turn.turn_id,
    status: turn.status,
    usage: turn.usage,
    costUsd: turn.cost_usd,
    provider: turn.provider,
    model: turn.model,
    error: turn.error,
    stopReason: turn.stop_reason,
  };
}

/** `message`: the call's stored result, whose images chat.history returns (the newest few of the conversation). */
function toolRow(turn: TurnSummary, call: TurnSummary['tool_calls'][number], message?: StoredMessage): ThreadItem {
  return {
    kind: 'tool',
    key: `t:${turn.turn_id}:${call.call_id}`,
    turnId: turn.turn_id,
    callId: call.call_id,
    name: call.name,
    requestedName: call.requested_name,
    args: call.args,
    status: call.status,
    errorCode: call.error_code,
    preview: call.result_preview,
    durationMs: call.duration_ms,
    images: message?.images ?? [],
    ...(message?.images_omitted ? { imagesOmitted: message.images_omitted } : {}),
    startedAt: null,
  };
}

/**
 * message id → the turn it started. Messages from chat.history name their turn. Without that (a daemon
 * that only has conversations.get), by time: a turn writes its message when it starts, after it was
 * created and before it finished; turns that finished before a message was written (stopped while
 * queued) never wrote one and are passed over. Turns queued long before they start can fool the time
 * rule; chat.history is what makes it exact.
 */
export function matchMessagesToTurns(messages: StoredMessage[], turns: TurnSummary[]): Map<number, TurnSummary> {
  const matched = new Map<number, TurnSummary>();
  if (messages.length > 0 && messages.every((message) => message.turn_id !== undefined)) {
    const byId = new Map(turns.map((turn) => [turn.turn_id, turn]));
    for (const message of messages) {
      const turn = message.role === 'user' && message.turn_id ? byId.get(message.turn_id) : undefined;
      if (turn) matched.set(message.id, turn);
    }
    return matched;
  }
  const ordered = [...turns].sort((a, b) => a.created_at.localeCompare(b.created_at));
  let next = 0;
  for (const message of messages) {
    if (message.role !== 'user') continue;
    while (next < ordered.length && ordered[next].finished_at !== null && ordered[next].finished_at! < message.created_at) next += 1;
    if (next < ordered.length && ordered[next].created_at <= message.created_at) {
      matched.set(message.id, ordered[next]);
      next += 1;
    }
  }
  return matched;
}

export function buildThread(snapshot: ThreadSnapshot): Thread {
  const { conversationId, messages, turns, replay } = snapshot;
  const statuses: Record<string, TurnStatus> = Object.fromEntries(turns.map((turn) => [turn.turn_id, turn.status]));
  /** turn id → when the replay saw it queued. */
  const queuedInReplay = new Map(replay.events.filter((event) => event.type === 'chat.turn_queued').map((event) => [(event.payload as { turn_id: string }).turn_id, event.time]));
  const stored = new Set(messages.map((message) => message.turn_id).filter((id): id is string => typeof id === 'string'));
  const newestTurn = turns.reduce((newest, turn) => (turn.created_at > newest ? turn.created_at : newest), '');
  // A turn queued after the snapshot was read is not in it; older turns beyond the snapshot's window are
  // not new, and their replayed events must not be shown twice.
  const isNewTurn = (turnId: string) => statuses[turnId] === undefined && !stored.has(turnId) && (queuedInReplay.get(turnId) ?? '') >= newestTurn && queuedInReplay.has(turnId);
  // Unfinished turns whose whole life is in the replay are rebuilt from events (exactly what streamed);
  // other unfinished ones keep what is stored and take the replay without its text deltas.
  const rebuild = new Set(turns.filter((turn) => !FINISHED.has(turn.status) && queuedInReplay.has(turn.turn_id)).map((turn) => turn.turn_id));
  const partial = new Set(turns.filter((turn) => !FINISHED.has(turn.status) && !rebuild.has(turn.turn_id)).map((turn) => turn.turn_id));

  const matched = matchMessagesToTurns(messages, turns);
  const items: ThreadItem[] = [];
  const seen = new Set<string>();
  let current: TurnSummary | null = null;
  let toolCursor = 0;

  const closeGroup = () => {
    if (!current) return;
    if (!rebuild.has(current.turn_id)) {
      for (const call of current.tool_calls.slice(toolCursor)) items.push(toolRow(current, call));
      if (FINISHED.has(current.status)) items.push(turnEnd(current));
    }
    current = null;
    toolCursor = 0;
  };

  const cuts = [...(snapshot.compactions ?? [])].sort((a, b) => a.through_message_id - b.through_message_id);
  for (const message of messages) {
    // The marker goes before the first message the model still reads.
    while (cuts.length > 0 && cuts[0].through_message_id < message.id) items.push(compactionRow(cuts.shift()!));
    if (message.role === 'user') {
      closeGroup();
      const turn = matched.get(message.id) ?? null;
      current = turn;
      if (turn) seen.add(turn.turn_id);
      // A message of a turn beyond the snapshot's window still names its turn (chat.history).
      const turnId = turn?.turn_id ?? message.turn_id ?? null;
      items.push({ kind: 'user', key: turnId ? `u:${turnId}` : `m:${message.id}`, turnId, text: message.content, time: message.created_at, reaction: null, pending: false, failed: null, attachments: storedAttachments(message.attachments) });
      continue;
    }
    if (current && rebuild.has(current.turn_id)) continue;
    if (message.role === 'assistant' && message.content.trim()) {
      items.push({ kind: 'assistant', key: `m:${message.id}`, turnId: current?.turn_id ?? message.turn_id ?? `m:${message.id}`, text: message.content, streaming: false });
    } else if (message.role === 'tool' && current && toolCursor < current.tool_calls.length) {
      items.push(toolRow(current, current.tool_calls[toolCursor], message));
      toolCursor += 1;
    }
  }
  closeGroup();
  for (const cut of cuts) items.push(compactionRow(cut));

  // Turns with no message yet: queued behind another, or started after the messages were read.
  for (const turn of turns) {
    if (seen.has(turn.turn_id) || FINISHED.has(turn.status)) continue;
    items.push({ kind: 'user', key: `u:${turn.turn_id}`, turnId: turn.turn_id, text: null, time: turn.created_at, reaction: null, pending: false, failed: null });
    if (!rebuild.has(turn.turn_id)) for (const call of turn.tool_calls) items.push(toolRow(turn, call));
  }

  placeApprovals(items, snapshot.approvals.filter((approval) => approval.conversation_id === conversationId));
  for (const grant of snapshot.directories) {
    if (grant.conversation_id !== conversationId) continue;
    items.push({ kind: 'directory', key: `d:${grant.token}`, token: grant.token, path: grant.path, reason: grant.reason, message: grant.message, expiresAt: grant.expires_at, state: 'pending', error: null });
  }

  // The pause state of the conversation, as the daemon reports it on its unfinished turns; replayed hold events refine it.
  const hold = turns.find((turn) => !FINISHED.has(turn.status) && turn.hold)?.hold ?? 'running';
  let thread: Thread = { conversationId, items, turns: statuses, appliedSeq: 0, hold };
  let replayTurn: string | null = null;
  for (const event of [...replay.events].sort((a, b) => a.seq - b.seq)) {
    if (event.stream !== conversationId) continue;
    const turnId = (event.payload as { turn_id?: string } | null)?.turn_id;
    if (event.type === 'chat.turn_started' && turnId) replayTurn = turnId;
    const concernsTurn = turnId !== undefined && (rebuild.has(turnId) || partial.has(turnId));
    const unstored = event.type === 'chat.attachment' || event.type === 'chat.reaction' || event.type === 'chat.subagent' || event.type === 'directory_access.requested' || event.type === 'approval.resolved';
    // A turn unknown to the snapshot (queued after it was read) comes in whole from the replay.
    const newTurn = turnId !== undefined && isNewTurn(turnId);
    if (!concernsTurn && !unstored && !newTurn) continue;
    thread = applyThreadEvent({ ...thread, appliedSeq: 0 }, event, { skipDeltas: turnId !== undefined && partial.has(turnId), turnHint: replayTurn });
  }
  return { ...thread, appliedSeq: replay.latest_seq };
}

/** A pending card goes under the parked tool call it is about (same capability), else at the end. */
function placeApprovals(items: ThreadItem[], approvals: PendingApproval[]): void {
  const used = new Set<string>();
  for (const approval of approvals) {
    const at = items.findIndex((item) => !used.has(item.key) && item.kind === 'tool' && item.status === 'parked' && item.name === approval.capability);
    const tool = at === -1 ? null : (items[at] as Extract<ThreadItem, { kind: 'tool' }>);
    const card = approvalFromCard(approval, { approvalId: approval.id, capability: approval.capability, reason: approval.reason, turnId: tool?.turnId ?? null, callId: tool?.callId ?? null });
    if (at === -1) {
      items.push(card);
    } else {
      used.add(items[at].key);
      items.splice(at + 1, 0, card);
    }
  }
}

