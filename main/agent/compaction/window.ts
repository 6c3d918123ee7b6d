/**
 * The history a model call gets once a conversation has been compacted: the latest summary (as the
 * first user message) and the messages after its cut. Tool results other than the last 3 are shortened
 * (reference §6: "the last 3 tool results stay raw"): the summary already tells what they were for.
 * Also where a compaction cuts: the tail it keeps is the newest messages within a token budget, and it
 * never starts with a tool result (a result must follow the call that asked for it).
 */
import type { CompactionRow, WindowMessage } from '../../store/compactions.js';
import type { StoredMessage } from '../../store/turns.js';
import { messageTokens } from './tokens.js';

export const RAW_TOOL_RESULTS = 3;
/** A shortened tool result keeps this many characters (results this long or shorter stay as they are). */
export const SHORTENED_RESULT_CHARS = 1_200;

export const SUMMARY_HEADER = '[Summary of the earlier part of this conversation, written when it was compacted. The messages it replaces are no longer shown to you.]';

export function summaryMessage(summary: Pick<CompactionRow, 'summary'>): StoredMessage {
  return { role: 'user', text: `${SUMMARY_HEADER}\n\n${summary.summary}` };
}

/** Tool results older than the last 3 cut to their start, with a note saying so. Pure. */
export function shortenOlderToolResults<T extends StoredMessage>(messages: readonly T[]): T[] {
  let rawLeft = RAW_TOOL_RESULTS;
  const out = [...messages];
  for (let index = out.length - 1; index >= 0; index -= 1) {
    const message = out[index];
    if (message.role !== 'tool') continue;
    if (rawLeft > 0) {
      rawLeft -= 1;
      continue;
    }
    if (message.text.length <= SHORTENED_RESULT_CHARS && !message.images?.length) continue;
    const left = message.text.length - SHORTENED_RESULT_CHARS;
    const text = left > 0
      ? `${message.text.slice(0, SHORTENED_RESULT_CHARS)}\n[… ${left} more characters left out to keep the conversation inside the context window; only the last ${RAW_TOOL_RESULTS} tool results are kept whole]`
      : message.text;
    out[index] = { ...message, text, images: undefined };
  }
  return out;
}

/**
 * Index where the kept tail starts: the newest messages whose tokens sum to at most `keepTokens`,
 * moved forward past tool results. `messages.length` means everything is summarized.
 */
export function chooseCut(messages: readonly StoredMessage[], keepTokens: number): number {
  let start = messages.length;
  let total = 0;
  while (start > 0) {
    const cost = messageTokens(messages[start - 1]);
    if (total + cost > keepTokens) break;
    total += cost;
    start -= 1;
  }
  while (start < messages.length && messages[start].role === 'tool') start += 1;
  return start;
}

/** The model-call history of a live window. `forceShorten`: an overflow retry shortens even before any summary exists. */
export function windowHistory(summary: CompactionRow | null, messages: readonly WindowMessage[], forceShorten = false): StoredMessage[] {
  const tail: StoredMessage[] = messages.map(({ id: _id, ...message }) => message as StoredMessage);
  const shaped = summary || forceShorten ? shortenOlderToolResults(tail) : tail;
  return summary ? [summaryMessage(summary), ...shaped] : shaped;
}
