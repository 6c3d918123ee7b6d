import type { OutputOf } from '../../../../../main/api/contract.js';
import type { WireError } from '../../../../../main/core/errors.js';
import type { MessageAttachment } from '../attachments/attachment-types.js';
import type { WorkerCardState } from '../items/worker-card-state.js';

export type TurnSummary = OutputOf<'chat.turns'>['turns'][number];
/** A stored message; `turn_id` is known from chat.history, absent from the older conversations.get. */
export type StoredMessage = Omit<OutputOf<'chat.history'>['messages'][number], 'turn_id'> & { turn_id?: string | null };
/** Where the conversation was compacted: model calls read the summary instead of the messages before it. */
export type Compaction = NonNullable<OutputOf<'chat.history'>['compactions']>[number];
export type PendingApproval = OutputOf<'approvals.list'>['pending'][number];
export type PendingDirectory = OutputOf<'directory_access.pending'>['pending'][number];
export type TurnStatus = TurnSummary['status'];
export type ToolStatus = TurnSummary['tool_calls'][number]['status'];

/** chat.pause: `pausing` while the step under way finishes, `paused` while the turn is held. */
export type HoldState = NonNullable<TurnSummary['hold']>;

export const FINISHED: ReadonlySet<TurnStatus> = new Set(['completed', 'partial', 'failed', 'stopped', 'interrupted']);

export interface ToolImage {
  mime_type: string;
  base64: string;
}

export interface AlwaysCovers {
  permission: string;
  pattern?: string;
  action: string;
  source: string;
  unjailed?: boolean;
}

/** One "Always allow" scope the daemon offers: the rule it saves and that rule in words. */
export interface ApprovalScopeChoice {
  id: string;
  rule: AlwaysCovers;
  words: string;
}

export type ApprovalState = 'pending' | 'answering' | 'once' | 'always' | 'deny' | 'cancelled';
export type DirectoryState = 'pending' | 'answering' | 'granted' | 'denied' | 'expired';

/** One row of the conversation. `key` is stable for the row's life (the list measures rows by it). */
export type ThreadItem =
  /** `text` null: a turn sent from elsewhere whose message is still being fetched, or one still queued. */
  | { kind: 'user'; key: string; turnId: string | null; text: string | null; time: string; reaction: string | null; pending: boolean; failed: WireError | null; attachments?: MessageAttachment[] }
  | { kind: 'assistant'; key: string; turnId: string; text: string; streaming: boolean }
  | {
      kind: 'tool';
      key: string;
      turnId: string;
      callId: string;
      name: string;
      requestedName: string;
      args: unknown;
      status: ToolStatus;
      errorCode: string | null;
      preview: string | null;
      durationMs: number | null;
      images: ToolImage[];
      /** Images of this call the daemon no longer returns after a reload (chat.history keeps the newest 3). */
      imagesOmitted?: number;
      startedAt: number | null;
    }
  | {
      kind: 'approval';
      key: string;
      turnId: string | null;
      approvalId: string;
      callId: string | null;
      capability: string;
      reason: string;
      args: unknown;
      alwaysCovers: AlwaysCovers | null;
      /** The scopes "Always allow" offers, the default first (absent from a daemon that offers one). */
      scopes?: ApprovalScopeChoice[];
      /** One line when the command runs without the OS jail (with the account's full rights). */
      warning: string | null;
      state: ApprovalState;
      error: WireError | null;
    }
  | { kind: 'directory'; key: string; token: string; path: string; reason: string; message: string; expiresAt: string; state: DirectoryState; error: WireError | null }
  | { kind: 'attachment'; key: string; turnId: string | null; id: string; filename: string; mimeType: string; fileKind: string; bytes: number; caption: string | null }
  | { kind: 'warning'; key: string; turnId: string; code: string; message: string }
  | {
      kind: 'turn-end';
      key: string;
      turnId: string;
      status: TurnStatus;
      usage: { input_tokens: number; output_tokens: number };
      costUsd: number | null;
      provider: string | null;
      model: string | null;
      error: WireError | null;
      stopReason: string | null;
    }
  /** The first row of a conversation longer than what was read: a button pages back (chat.history before_id). */
  | { kind: 'earlier'; key: 'earlier'; beforeId: number; loading: boolean; error: WireError | null }
  /** After the last message a compaction replaced: the person can open the summary the model now reads. */
  | { kind: 'compaction'; key: string; id: number; summary: string; replaced: number; reason: Compaction['reason']; createdAt: string }
  /** What a slash command did, said in the thread (e.g. "Computer use paused"). */
  /** `turnId`: said while that turn ran, so what it streams afterwards goes below (ordered with the stream). */
  | { kind: 'notice'; key: string; text: string; error: WireError | null; turnId?: string | null }
  /** A `subagents` call's workers, live from chat.subagent events (not stored: a reload keeps the tool result only). */
  | { kind: 'workers'; key: string; turnId: string; batchId: string; cards: WorkerCardState[] };

export type ThreadItemKind = ThreadItem['kind'];

export interface Thread {
  conversationId: string;
  items: ThreadItem[];
  /** Status of every turn the window knows about. */
  turns: Record<string, TurnStatus>;
  /** Events of this stream up to here are already in `items`. */
  appliedSeq: number;
  /** The conversation's pause switch (it applies to the running turn and the ones queued behind it). */
  hold: HoldState;
}

export function emptyThread(conversationId: string, appliedSeq = 0): Thread {
  return { conversationId, items: [], turns: {}, appliedSeq, hold: 'running' };
}

/**
 * The conversation's current turn: the one running or waiting for an approval, else the newest queued one
 * (the status says "Waiting for approval" while a message typed meanwhile is queued behind it). Stop ends
 * them all (chat.stop).
 */
export function activeTurn(thread: Thread | null): { turnId: string; status: TurnStatus } | null {
  if (!thread) return null;
  let queued: { turnId: string; status: TurnStatus } | null = null;
  for (const [turnId, status] of Object.entries(thread.turns)) {
    if (status === 'running' || status === 'parked') return { turnId, status };
    if (status === 'queued') queued = { turnId, status };
  }
  return queued;
}
