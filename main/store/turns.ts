/**
 * Agent turns in SQLite (migration 2): the turn row, the model-level messages it wrote (in
 * `messages.data`), its tool calls, per-model-call usage, and the parked approval that lets a turn
 * survive a daemon restart. The loop persists every step BEFORE it acts on it, so a restart finds the
 * exact point where a parked turn stopped.
 */
import { FermixError } from '../core/errors.js';
import { redactSecrets, redactValue } from '../core/redaction.js';
import type { AttachmentRef } from './attachments.js';
import type { Database } from './database.js';

export const TURN_STATUSES = ['queued', 'running', 'parked', 'completed', 'partial', 'failed', 'stopped', 'interrupted'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];
export const FINISHED_STATUSES: ReadonlySet<TurnStatus> = new Set(['completed', 'partial', 'failed', 'stopped', 'interrupted']);

export interface StoredImage {
  mimeType: string;
  base64: string;
}
export interface StoredToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** What the loop replays to the model; `messages.content` keeps the human-readable text. */
export type StoredMessage =
  /** `attachments`: the files the person sent with it (bytes stay in the attachments store, read by id). */
  | { role: 'user'; text: string; attachments?: AttachmentRef[] }
  | { role: 'assistant'; text: string; toolCalls: StoredToolCall[]; partial?: boolean }
  | { role: 'tool'; callId: string; name: string; text: string; isError: boolean; images?: StoredImage[] };

/** Options a turn was started with; persisted so a resumed turn runs under the same trust and origin. */
export interface TurnOptions {
  trust: 'operator' | 'guest';
  origin: 'chat' | 'cli' | 'job' | 'subagent' | 'voice' | 'mcp-inbound';
  interactive: boolean;
  cwd?: string;
  kind: 'interactive' | 'subagent' | 'job';
  /** The user's message, kept until the turn starts and writes it to the history. */
  message?: string;
  /** Its attachments (claimed at send), kept with it so a queued or parked turn still has them. */
  attachments?: AttachmentRef[];
  /** A job run's stamped role (main/jobs): it replaces the main agent's role for this turn. */
  role?: { name: string; tools: string[] };
  /** A job run's allowed_tools: offered and invoked tools are narrowed to these names. */
  allowed_tools?: string[];
}

export interface TurnRow {
  id: string;
  conversation_id: string;
  status: TurnStatus;
  options: TurnOptions;
  provider: string | null;
  model: string | null;
  iterations: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  stop_reason: string | null;
  error_code: string | null;
  error_message: string | null;
  error_hint: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface ToolCallRow {
  call_id: string;
  requested_name: string;
  name: string;
  args: unknown;
  status: 'running' | 'parked' | 'ok' | 'error' | 'cancelled';
  error_code: string | null;
  result_preview: string | null;
  duration_ms: number | null;
}

export interface ModelCallRecord {
  iteration: number;
  provider: string;
  model: string;
  attempt: number;
  outcome: 'ok' | 'error' | 'aborted';
  finish_reason?: string | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
  cost_usd?: number | null;
  duration_ms: number;
  error_code?: string | null;
}

export interface ParkedApproval {
  turn_id: string;
  call_id: string;
  approval_id: string;
  capability: string;
  reason: string;
  card: unknown;
  parked_at: string;
}

type RawTurn = Omit<TurnRow, 'options'> & { options: string };

const PREVIEW_CHARS = 2_000;

function parseTurn(raw: RawTurn): TurnRow {
  return { ...raw, options: JSON.parse(raw.options) as TurnOptions };
}

function contentOf(message: StoredMessage): string {
  return message.text;
}

export function createTurnStore(db: Database, now: () => Date = () => new Date()) {
  const time = () => now().toISOString();

  /**
   * Secrets at rest (hardening): while a turn runs, the model sees its tool calls' arguments and results
   * as they were (it may need the value it just read); once the turn is over, they are stored with
   * secret-shaped values replaced, so the database never keeps a key that passed through a tool.
   * A parked turn is not finished: its call is re-run from these arguments after a restart.
   */
  function redactFinishedTurn(id: string): void {
    const rows = db.all<{ id: number; role: string; content: string; data: string | null }>("SELECT id, role, content, data FROM messages WHERE turn_id = ? AND role IN ('assistant', 'tool')", [id]);
    for (const row of rows) {
      if (row.data === null) continue;
      let message: StoredMessage;
      try {
        message = JSON.parse(row.data) as StoredMessage;
      } catch {
        continue;
      }
      let next: StoredMessage | undefined;
      if (message.role === 'assistant' && message.toolCalls.length > 0) {
        next = { ...message, toolCalls: message.toolCalls.map((call) => ({ ...call, args: redactValue(call.args) as typeof call.args })) };
      } else if (message.role === 'tool') {
        next = { ...message, text: redactSecrets(message.text) };
      }
      if (next === undefined) continue;
      const data = JSON.stringify(next);
      if (data !== row.data) db.run('UPDATE messages SET content = ?, data = ? WHERE id = ?', [contentOf(next), data, row.id]);
    }
  }

  function getTurn(id: string): TurnRow {
    const raw = db.get<RawTurn>('SELECT * FROM turns WHERE id = ?', [id]);
    if (!raw) {
      throw new FermixError({ code: 'turn_not_found', message: `No turn with id ${id}.`, hint: 'List the turns of a conversation with the chat.turns API method.', data: { id } });
    }
    return parseTurn(raw);
  }

  return {
    /** `fermix ask --session NAME` may name a conversation that does not exist yet. */
    ensureConversation(id: string, title: string): { created: boolean } {
      const stamp = time();
      const { changes } = db.run('INSERT OR IGNORE INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', [id, title, stamp, stamp]);
      return { created: changes > 0 };
    },
    conversationExists(id: string): boolean {
      return db.get('SELECT 1 AS found FROM conversations WHERE id = ?', [id]) !== undefined;
    },
    createTurn(id: string, conversationId: string, options: TurnOptions): TurnRow {
      db.run('INSERT INTO turns (id, conversation_id, status, options, created_at) VALUES (?, ?, ?, ?, ?)', [id, conversationId, 'queued', JSON.stringify(options), time()]);
      return getTurn(id);
    },
    getTurn,
    listTurns(conversationId: string, limit = 100): TurnRow[] {
      return db.all<RawTurn>('SELECT * FROM turns WHERE conversation_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?', [conversationId, limit]).map(parseTurn).reverse();
    },
    setStatus(id: string, status: TurnStatus): void {
      db.run('UPDATE turns SET status = ? WHERE id = ?', [status, id]);
    },
    setProvider(id: string, provider: string, model: string): void {
      db.run('UPDATE turns SET provider = ?, model = ? WHERE id = ?', [provider, model, id]);
    },
    setIterations(id: string, iterations: number): void {
      db.run('UPDATE turns SET iterations = ? WHERE id = ?', [iterations, id]);
    },
    finishTurn(id: string, fields: { status: TurnStatus; stop_reason?: string | null; error?: { code: string; message: string; hint?: string } | null }): TurnRow {
      db.transaction(() => {
        db.run('UPDATE turns SET status = ?, stop_reason = ?, error_code = ?, error_message = ?, error_hint = ?, finished_at = ? WHERE id = ?', [
          fields.status, fields.stop_reason ?? null, fields.error?.code ?? null, fields.error?.message ?? null, fields.error?.hint ?? null, time(), id,
        ]);
        db.run('DELETE FROM parked_approvals WHERE turn_id = ?', [id]);
        redactFinishedTurn(id);
      });
      return getTurn(id);
    },
    recordModelCall(turnId: string, call: ModelCallRecord): void {
      db.transaction(() => {
        db.run(
          `INSERT INTO model_calls (turn_id, iteration, provider, model, attempt, outcome, finish_reason, input_tokens, output_tokens, cost_usd, duration_ms, error_code, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [turnId, call.iteration, call.provider, call.model, call.attempt, call.outcome, call.finish_reason ?? null, call.input_tokens ?? null, call.output_tokens ?? null, call.cost_usd ?? null, call.duration_ms, call.error_code ?? null, time()],
        );
        // Cost stays NULL until some call reports one: "unknown" is not "free".
        db.run(
          `UPDATE turns SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
             cost_usd = CASE WHEN ? IS NULL THEN cost_usd ELSE COALESCE(cost_usd, 0) + ? END WHERE id = ?`,
          [call.input_tokens ?? 0, call.output_tokens ?? 0, call.cost_usd ?? null, call.cost_usd ?? 0, turnId],
        );
      });
    },
    modelCalls(turnId: string): (ModelCallRecord & { id: number })[] {
      return db.all('SELECT id, iteration, provider, model, attempt, outcome, finish_reason, input_tokens, output_tokens, cost_usd, duration_ms, error_code FROM model_calls WHERE turn_id = ? ORDER BY id', [turnId]);
    },
    appendMessage(conversationId: string, turnId: string | null, message: StoredMessage): number {
      const stamp = time();
      return db.transaction(() => {
        const { lastInsertRowid } = db.run('INSERT INTO messages (conversation_id, role, content, data, created_at, turn_id) VALUES (?, ?, ?, ?, ?, ?)', [
          conversationId, message.role, contentOf(message), JSON.stringify(message), stamp, turnId,
        ]);
        db.run('UPDATE conversations SET updated_at = ? WHERE id = ?', [stamp, conversationId]);
        return lastInsertRowid;
      });
    },
    /** One logical step of a turn (a tool result and its call row, a model answer and its provider) as one commit. */
    step<T>(work: () => T): T {
      return db.transaction(work);
    },
    /** Rewrites one message row in place: the streamed-text draft of a step becomes its final message. */
    replaceMessage(id: number, message: StoredMessage): void {
      db.run('UPDATE messages SET role = ?, content = ?, data = ? WHERE id = ?', [message.role, contentOf(message), JSON.stringify(message), id]);
    },
    /** The model-level history. Rows written without `data` (by other writers) replay as plain text. */
    history(conversationId: string): StoredMessage[] {
      const rows = db.all<{ role: string; content: string; data: string | null }>('SELECT role, content, data FROM messages WHERE conversation_id = ? ORDER BY id', [conversationId]);
      const out: StoredMessage[] = [];
      for (const row of rows) {
        if (row.data) {
          try {
            const parsed = JSON.parse(row.data) as StoredMessage;
            if (parsed && parsed.role === row.role) {
              out.push(parsed);
              continue;
            }
          } catch {
            // fall through to the plain-text reading
          }
        }
        if (row.role === 'user') out.push({ role: 'user', text: row.content });
        else if (row.role === 'assistant') out.push({ role: 'assistant', text: row.content, toolCalls: [] });
      }
      return out;
    },
    toolCallStarted(turnId: string, call: { call_id: string; requested_name: string; name: string; args: unknown }): void {
      db.run(
        `INSERT INTO tool_calls (turn_id, call_id, requested_name, name, args, status, created_at) VALUES (?, ?, ?, ?, ?, 'running', ?)
         ON CONFLICT (turn_id, call_id) DO UPDATE SET status = 'running'`,
        // The row is for people (chat.turns); the call itself runs from the arguments the loop holds.
        [turnId, call.call_id, call.requested_name, call.name, JSON.stringify(redactValue(call.args ?? null)), time()],
      );
    },
    toolCallFinished(turnId: string, callId: string, fields: { status: 'ok' | 'error' | 'cancelled'; error_code?: string | null; text: string; duration_ms: number }): void {
      db.run('UPDATE tool_calls SET status = ?, error_code = ?, result_preview = ?, duration_ms = ?, finished_at = ? WHERE turn_id = ? AND call_id = ?', [
        fields.status, fields.error_code ?? null, redactSecrets(fields.text).slice(0, PREVIEW_CHARS), fields.duration_ms, time(), turnId, callId,
      ]);
    },
    /** Tool calls of many turns in one query (chat.turns of a long conversation): turn id → calls in order. */
    toolCallsOf(turnIds: readonly string[]): Map<string, ToolCallRow[]> {
      const out = new Map<string, ToolCallRow[]>(turnIds.map((id) => [id, []]));
      if (turnIds.length === 0) return out;
      const rows = db.all<ToolCallRow & { turn_id: string; args: string }>(
        `SELECT turn_id, call_id, requested_name, name, args, status, error_code, result_preview, duration_ms FROM tool_calls WHERE turn_id IN (${turnIds.map(() => '?').join(',')}) ORDER BY id`,
        [...turnIds],
      );
      for (const { turn_id: turnId, ...row } of rows) out.get(turnId)?.push({ ...row, args: JSON.parse(row.args) as unknown });
      return out;
    },
    /** The last non-empty answer of each turn in one query: turn id → text (absent when it has none). */
    lastAnswers(conversationId: string, turnIds: readonly string[]): Map<string, string> {
      const out = new Map<string, string>();
      if (turnIds.length === 0) return out;
      const rows = db.all<{ turn_id: string; content: string }>(
        `SELECT turn_id, content FROM messages WHERE conversation_id = ? AND role = 'assistant' AND content != '' AND turn_id IN (${turnIds.map(() => '?').join(',')}) ORDER BY id`,
        [conversationId, ...turnIds],
      );
      for (const row of rows) out.set(row.turn_id, row.content);
      return out;
    },
    toolCalls(turnId: string): ToolCallRow[] {
      return db.all<ToolCallRow & { args: string }>('SELECT call_id, requested_name, name, args, status, error_code, result_preview, duration_ms FROM tool_calls WHERE turn_id = ? ORDER BY id', [turnId])
        .map((row) => ({ ...row, args: JSON.parse(row.args) as unknown }));
    },
    park(entry: Omit<ParkedApproval, 'parked_at'>): void {
      db.transaction(() => {
        db.run('INSERT OR REPLACE INTO parked_approvals (turn_id, call_id, approval_id, capability, reason, card, parked_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
          entry.turn_id, entry.call_id, entry.approval_id, entry.capability, entry.reason, JSON.stringify(entry.card), time(),
        ]);
        db.run("UPDATE tool_calls SET status = 'parked' WHERE turn_id = ? AND call_id = ?", [entry.turn_id, entry.call_id]);
        db.run("UPDATE turns SET status = 'parked' WHERE id = ?", [entry.turn_id]);
      });
    },
    unpark(turnId: string): void {
      db.transaction(() => {
        const row = db.get<{ call_id: string }>('SELECT call_id FROM parked_approvals WHERE turn_id = ?', [turnId]);
        db.run('DELETE FROM parked_approvals WHERE turn_id = ?', [turnId]);
        if (row) db.run("UPDATE tool_calls SET status = 'running' WHERE turn_id = ? AND call_id = ? AND status = 'parked'", [turnId, row.call_id]);
        db.run("UPDATE turns SET status = 'running' WHERE id = ? AND status = 'parked'", [turnId]);
      });
    },
    parked(turnId: string): ParkedApproval | undefined {
      const row = db.get<ParkedApproval & { card: string }>('SELECT * FROM parked_approvals WHERE turn_id = ?', [turnId]);
      return row ? { ...row, card: JSON.parse(row.card) as unknown } : undefined;
    },
    /** Parked turns, oldest first: what a starting daemon resumes. */
    parkedTurns(): TurnRow[] {
      return db.all<RawTurn>("SELECT * FROM turns WHERE status = 'parked' ORDER BY created_at, rowid").map(parseTurn);
    },
    /**
     * At start-up: turns that were queued or running when the daemon stopped cannot be resumed safely
     * (a half-run tool may have had effects), so they end as `interrupted` with the reason recorded.
     */
    interruptUnfinished(reason: string): number {
      const { changes } = db.run(
        "UPDATE turns SET status = 'interrupted', stop_reason = ?, error_code = 'interrupted', error_message = ?, error_hint = ?, finished_at = ? WHERE status IN ('queued', 'running')",
        ['daemon_restart', reason, 'Send the message again.', time()],
      );
      return changes;
    },
  };
}

export type TurnStore = ReturnType<typeof createTurnStore>;
