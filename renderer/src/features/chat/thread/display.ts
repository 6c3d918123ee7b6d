/**
 * What the thread shows, derived from the store's rows (pure, recomputed per change). The store keeps one
 * row per daemon fact; the person sees one card per tool call (its approval folded in), a "thinking" row
 * from send to first output, one banner where a paused turn is held, and the conversation's totals on its
 * last footer. Keeping this a view means the event reducer (apply-event.ts) stays as it was.
 */
import { FINISHED, type HoldState, type Thread, type ThreadItem, type TurnStatus } from './thread-types.js';

type Item<K extends ThreadItem['kind']> = Extract<ThreadItem, { kind: K }>;
export type ApprovalItem = Item<'approval'>;

export interface Totals {
  inputTokens: number;
  outputTokens: number;
  /** Null when no turn had a known, non-zero cost. */
  costUsd: number | null;
  turns: number;
}

export type DisplayItem =
  | Exclude<ThreadItem, { kind: 'tool' | 'user' | 'assistant' | 'turn-end' }>
  /** While its approval waits, the tool card is the approval; afterwards it says how it was answered. */
  | (Item<'tool'> & { approval: ApprovalItem | null })
  /** `queuedBehind`: sent while another turn waits for an approval; `editable`: its turn has finished. */
  | (Item<'user'> & { queuedBehind: 'approval' | 'turn' | null; editable: boolean })
  /** `regenerable`: the last answer of a finished turn; `actions`: the turn's last piece of text (copy…). */
  | (Item<'assistant'> & { regenerable: boolean; actions: boolean })
  /** `totals` only on the conversation's last footer; `continuable`: the last turn was stopped. */
  | (Item<'turn-end'> & { totals: Totals | null; continuable: boolean })
  | { kind: 'thinking'; key: string; turnId: string }
  | { kind: 'hold'; key: string; turnId: string; state: Exclude<HoldState, 'running'> };

const turnOf = (item: ThreadItem): string | null => ('turnId' in item ? (item.turnId ?? null) : null);

/** Shown tokens and cost of one footer: only what is known (no "0 in · 0 out", no "$0", no "cost unknown"). */
export function usageWords(usage: { input_tokens: number; output_tokens: number }, costUsd: number | null): string[] {
  const words: string[] = [];
  if (usage.input_tokens > 0 || usage.output_tokens > 0) words.push(`${usage.input_tokens.toLocaleString('en-US')} in · ${usage.output_tokens.toLocaleString('en-US')} out tokens`);
  if (costUsd !== null && costUsd > 0) words.push(costUsd < 0.01 ? `$${costUsd.toPrecision(2)}` : `$${costUsd.toFixed(2)}`);
  return words;
}

export function displayItems(thread: Pick<Thread, 'items' | 'turns' | 'hold'>): DisplayItem[] {
  const { items, turns } = thread;
  const approvalsByCall = new Map<string, ApprovalItem>();
  const toolCalls = new Set<string>();
  for (const item of items) {
    if (item.kind === 'tool') toolCalls.add(`${item.turnId}:${item.callId}`);
    if (item.kind === 'approval' && item.callId && item.turnId) approvalsByCall.set(`${item.turnId}:${item.callId}`, item);
  }
  const parkedTurn = Object.entries(turns).find(([, status]) => status === 'parked')?.[0] ?? null;
  const running = Object.entries(turns).filter(([, status]) => !FINISHED.has(status)).map(([turnId]) => turnId);
  const current = running.find((turnId) => turns[turnId] !== 'queued') ?? null;
  const lastTurnEnd = findLast(items, (item) => item.kind === 'turn-end');
  const lastAnswerOf = new Map<string, string>();
  for (const item of items) if (item.kind === 'assistant') lastAnswerOf.set(item.turnId, item.key);
  const totals = sumTotals(items);

  const out: DisplayItem[] = [];
  for (const item of items) {
    switch (item.kind) {
      case 'approval':
        // Folded into its tool card; an approval with no call on screen (another surface's) stays a card.
        if (item.callId && item.turnId && toolCalls.has(`${item.turnId}:${item.callId}`)) continue;
        out.push(item);
        break;
      case 'tool':
        out.push({ ...item, approval: approvalsByCall.get(`${item.turnId}:${item.callId}`) ?? null });
        break;
      case 'user': {
        const status: TurnStatus | undefined = item.turnId ? turns[item.turnId] : undefined;
        const queued = status === 'queued' || (item.pending && running.length > 0);
        const queuedBehind = queued && item.turnId !== current ? (parkedTurn ? 'approval' : running.some((turnId) => turnId !== item.turnId && turns[turnId] !== 'queued') ? 'turn' : null) : null;
        out.push({ ...item, queuedBehind, editable: !!item.turnId && !!status && FINISHED.has(status) && item.text !== null });
        break;
      }
      case 'assistant': {
        const status = turns[item.turnId];
        const last = lastAnswerOf.get(item.turnId) === item.key;
        out.push({ ...item, regenerable: !!status && FINISHED.has(status) && last, actions: last });
        break;
      }
      case 'turn-end':
        out.push({ ...item, totals: item === lastTurnEnd && totals.turns > 1 ? totals : null, continuable: item === lastTurnEnd && item.status === 'stopped' && running.length === 0 });
        break;
      default:
        out.push(item);
    }
  }
  if (current) return withLiveRows(out, current, turns[current], thread.hold);
  return out;
}

/** The running turn's "thinking" row (nothing shown yet after its message) and the pause banner. */
function withLiveRows(out: DisplayItem[], turnId: string, status: TurnStatus, hold: HoldState): DisplayItem[] {
  const rows = out.filter((item) => turnOf(item as ThreadItem) === turnId);
  const shown = rows.some((item) => item.kind !== 'user');
  const last = rows.at(-1);
  const at = last ? out.lastIndexOf(last) + 1 : out.length;
  const extra: DisplayItem[] = [];
  if (!shown && status === 'running' && hold === 'running') extra.push({ kind: 'thinking', key: `thinking:${turnId}`, turnId });
  // The banner sits where the turn is held: right after what it has produced so far.
  if (hold !== 'running') extra.push({ kind: 'hold', key: `hold:${turnId}`, turnId, state: hold });
  return extra.length ? [...out.slice(0, at), ...extra, ...out.slice(at)] : out;
}

function sumTotals(items: readonly ThreadItem[]): Totals {
  const totals: Totals = { inputTokens: 0, outputTokens: 0, costUsd: null, turns: 0 };
  for (const item of items) {
    if (item.kind !== 'turn-end') continue;
    totals.turns += 1;
    totals.inputTokens += item.usage.input_tokens;
    totals.outputTokens += item.usage.output_tokens;
    if (item.costUsd !== null && item.costUsd > 0) totals.costUsd = (totals.costUsd ?? 0) + item.costUsd;
  }
  return totals;
}

function findLast<T>(list: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let index = list.length - 1; index >= 0; index -= 1) if (test(list[index])) return list[index];
  return undefined;
}
