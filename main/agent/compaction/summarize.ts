/**
 * The summary model call: the same provider as the conversation, a compaction prompt, and an output
 * budget of 8,000 tokens (reference §2.7 "compaction token budget 8,000"; less when the window is
 * small, so the summary itself fits). A history longer than the window is summarized in chunks, each
 * call carrying the summary so far: no call ever sends more than the window.
 */
import type { StoredMessage } from '../../store/turns.js';
import { aiSdk } from '../ai-runtime.js';
import { FermixError } from '../../core/errors.js';
import type { ProviderHandle } from '../loop/model-call.js';
import { classifyProviderError } from '../providers/provider-errors.js';
import { estimateTokens } from './tokens.js';

export const COMPACTION_BUDGET = 8_000;
/** The first line of the prompt; the scripted model server's tests recognise compaction calls by it. */
export const COMPACTION_PROMPT_MARKER = 'You compact conversations between a person and Fermix, their AI agent.';

export const COMPACTION_PROMPT = `${COMPACTION_PROMPT_MARKER}
Write a summary that will replace the transcript below in the agent's memory; the agent will continue the conversation from it alone.
Keep: what the person asked for and why, decisions and preferences they stated, facts learned (names, paths, numbers, ids, URLs),
what tools were run and what they found or changed, what is finished, what is still open, and the very last request with its state.
Leave out greetings, repetition and tool output that no longer matters. Write plain prose and short lists, in the conversation's language.
If a summary so far is given, merge it with the new part into one summary.`;

/** Characters of one tool result or argument list the summarizer reads (the rest is rarely what matters). */
const RESULT_CHARS = 2_000;
const PROMPT_TOKENS = estimateTokens(COMPACTION_PROMPT) + 64;

export function budgetFor(windowTokens: number): number {
  return Math.max(256, Math.min(COMPACTION_BUDGET, Math.floor(windowTokens * 0.2)));
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)} […${text.length - chars} more characters]`;
}

export function renderMessage(message: StoredMessage): string {
  if (message.role === 'user') return `Person: ${message.text}${message.attachments?.length ? ` [attached: ${message.attachments.map((file) => file.filename).join(', ')}]` : ''}`;
  if (message.role === 'assistant') {
    const calls = message.toolCalls.map((call) => `\nFermix called ${call.name}(${clip(JSON.stringify(call.args ?? {}), RESULT_CHARS)})`).join('');
    return `Fermix: ${message.text}${calls}`;
  }
  return `Result of ${message.name}${message.isError ? ' (failed)' : ''}: ${clip(message.text, RESULT_CHARS)}`;
}

/** Rendered messages grouped into chunks of at most `chunkTokens` (a single longer message is cut). */
export function chunkTranscript(messages: readonly StoredMessage[], chunkTokens: number): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const message of messages) {
    let line = renderMessage(message);
    let cost = estimateTokens(line);
    if (cost > chunkTokens) {
      line = clip(line, Math.floor(chunkTokens * 3));
      cost = estimateTokens(line);
    }
    if (tokens + cost > chunkTokens && current.length > 0) {
      chunks.push(current.join('\n\n'));
      current = [];
      tokens = 0;
    }
    current.push(line);
    tokens += cost;
  }
  if (current.length > 0) chunks.push(current.join('\n\n'));
  return chunks;
}

export interface SummarizeInput {
  handle: ProviderHandle;
  windowTokens: number;
  previous: string | null;
  messages: readonly StoredMessage[];
  signal: AbortSignal;
}

export interface SummaryResult {
  text: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

async function summarizeOnce(handle: ProviderHandle, budget: number, previous: string | null, chunk: string, signal: AbortSignal) {
  const timeout = AbortSignal.timeout(handle.provider.timeoutMs);
  const content = `${previous ? `The summary so far:\n${previous}\n\n` : ''}The conversation to summarize:\n\n${chunk}`;
  let text = '';
  let failure: unknown;
  const usage = { inputTokens: 0, outputTokens: 0 };
  try {
    // streamText (the loop's own call) rather than generateText: one code path for both vendors' wire formats.
    const result = aiSdk().streamText({
      model: handle.model(),
      system: COMPACTION_PROMPT,
      messages: [{ role: 'user', content }],
      maxOutputTokens: budget,
      maxRetries: 1,
      abortSignal: AbortSignal.any([signal, timeout]),
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      else if (part.type === 'finish-step') {
        usage.inputTokens += part.usage.inputTokens ?? 0;
        usage.outputTokens += part.usage.outputTokens ?? 0;
      } else if (part.type === 'error') failure ??= part.error;
    }
  } catch (error) {
    failure ??= error;
  }
  if (failure !== undefined) throw classifyProviderError(failure, handle.provider, timeout.aborted).error;
  return { text, usage };
}

export async function summarize(input: SummarizeInput): Promise<SummaryResult> {
  const budget = budgetFor(input.windowTokens);
  // What one call may carry besides the prompt: the window minus the summary so far and the answer.
  const chunkTokens = Math.max(512, Math.floor(input.windowTokens * 0.85) - 2 * budget - PROMPT_TOKENS);
  let summary = input.previous;
  const result: SummaryResult = { text: '', calls: 0, inputTokens: 0, outputTokens: 0 };
  for (const chunk of chunkTranscript(input.messages, chunkTokens)) {
    const answer = await summarizeOnce(input.handle, budget, summary, chunk, input.signal);
    result.calls += 1;
    result.inputTokens += answer.usage.inputTokens ?? 0;
    result.outputTokens += answer.usage.outputTokens ?? 0;
    const text = answer.text.trim();
    if (!text) {
      throw new FermixError({
        code: 'compaction_failed',
        message: `${input.handle.provider.name} (${input.handle.provider.model}) returned an empty summary, so the conversation was not compacted.`,
        hint: 'Type /compact to try again, or start a new conversation with /new.',
        data: { provider: input.handle.provider.name },
      });
    }
    summary = text;
  }
  result.text = summary ?? '';
  return result;
}
