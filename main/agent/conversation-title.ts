/**
 * Model-written conversation titles (issue 15 item 2): after a conversation's first exchange, one short
 * non-streamed request to the provider that answered — its own system prompt, no tools, a few output
 * tokens, a time bound — asks for a title of at most six words. The answer is cleaned to one plain line of
 * at most 60 characters and replaces the first-words title, unless the person renamed the conversation
 * meanwhile (the store only overwrites a title whose source is still `auto`). The window hears the same
 * `conversation.updated` event a rename sends. Any failure keeps the first-words title, with one debug
 * line: a title is a nicety and never the turn's problem. `[fermix_core] model_titles = false` turns it off.
 */
import { aiSdk } from './ai-runtime.js';
import type { ProviderHandle } from './loop/model-call.js';
import type { EventSink } from './loop/turn-events.js';
import { estimateCostUsd } from './providers/pricing.js';
import type { Database } from '../store/database.js';
import type { TurnStore } from '../store/turns.js';

/** The system prompt's first line; the scripted model server's tests recognise title requests by it. */
export const TITLE_PROMPT_MARKER = 'You write short titles for conversations between a person and Fermix, their AI agent.';
const TITLE_PROMPT = `${TITLE_PROMPT_MARKER}
Answer with the title only: at most six words, in the conversation's language, no quotes, no punctuation at the end, no markdown.`;
/** A six-word title needs ~12 tokens; some providers count a leading space or a newline as one. */
export const TITLE_MAX_TOKENS = 24;
/** The title request's own bound, well under a provider's turn timeout: a slow title is not worth waiting for. */
export const TITLE_TIMEOUT_MS = 15_000;
export const TITLE_MAX_CHARS = 60;
/** Characters of the first message and of the answer the title request carries. */
const EXCERPT_CHARS = 1_500;

/** One line, no quotes or markdown, at most 60 characters; null when nothing usable is left. */
export function sanitizeTitle(raw: string): string | null {
  let line = raw.split('\n').map((each) => each.trim()).find((each) => each !== '') ?? '';
  line = line.replace(/^(title|titel|titre)\s*:\s*/i, '');
  line = line.replace(/[*_`#>~[\]]/g, '').replace(/["“”„«»]/g, '').replace(/(^|\s)'|'(\s|$)/g, '$1$2');
  line = line.replace(/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
  line = line.replace(/[.!?:;,]+$/, '').trim();
  if (line === '') return null;
  if (line.length <= TITLE_MAX_CHARS) return line;
  const cut = line.slice(0, TITLE_MAX_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut).trim()}…`;
}

export interface TitleLogger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
}

export interface ModelTitleInput {
  db: Database;
  store: Pick<TurnStore, 'recordModelCall'>;
  events: EventSink;
  logger: TitleLogger;
  handle: ProviderHandle;
  conversationId: string;
  turnId: string;
  firstMessage: string;
  answer: string;
}

/** True when this finished turn is the conversation's first exchange and its title is still the first words. */
export function wantsModelTitle(db: Database, conversationId: string, turnId: string): boolean {
  const row = db.get<{ title_source: string }>('SELECT title_source FROM conversations WHERE id = ? AND deleted_at IS NULL', [conversationId]);
  if (row?.title_source !== 'auto') return false;
  const first = db.get<{ id: string }>('SELECT id FROM turns WHERE conversation_id = ? ORDER BY created_at, rowid LIMIT 1', [conversationId]);
  return first?.id === turnId;
}

function clip(text: string): string {
  return text.length <= EXCERPT_CHARS ? text : `${text.slice(0, EXCERPT_CHARS)}…`;
}

/** Asks for the title and stores it; resolves to the stored title, or null when the first words stay. */
export async function writeModelTitle(input: ModelTitleInput): Promise<string | null> {
  const { handle } = input;
  const started = Date.now();
  const usage = { input: 0, output: 0 };
  let outcome: 'ok' | 'error' = 'ok';
  let errorCode: string | null = null;
  try {
    const result = await aiSdk().generateText({
      model: handle.model(),
      system: TITLE_PROMPT,
      messages: [{ role: 'user', content: `Person: ${clip(input.firstMessage)}\n\nFermix: ${clip(input.answer)}\n\nThe title:` }],
      maxOutputTokens: TITLE_MAX_TOKENS,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
    });
    usage.input = result.usage.inputTokens ?? 0;
    usage.output = result.usage.outputTokens ?? 0;
    const title = sanitizeTitle(result.text);
    if (title === null) {
      input.logger.debug?.('model title was empty; the first words stay', { conversation_id: input.conversationId });
      return null;
    }
    const changed = input.db.run("UPDATE conversations SET title = ?, title_source = 'model' WHERE id = ? AND title_source = 'auto' AND deleted_at IS NULL", [title, input.conversationId]).changes > 0;
    if (!changed) {
      input.logger.debug?.('conversation was renamed meanwhile; the model title is dropped', { conversation_id: input.conversationId });
      return null;
    }
    input.events.emit(input.conversationId, 'conversation.updated', { id: input.conversationId, title });
    return title;
  } catch (error) {
    outcome = 'error';
    errorCode = (error as { name?: string })?.name === 'TimeoutError' ? 'timeout' : 'provider_error';
    input.logger.debug?.('model title failed; the first words stay', { conversation_id: input.conversationId, error: String((error as Error)?.message ?? error) });
    return null;
  } finally {
    // The request costs tokens like any other: it is recorded with the turn whose exchange it named.
    input.store.recordModelCall(input.turnId, {
      iteration: 0,
      provider: handle.provider.name,
      model: handle.provider.model,
      attempt: 1,
      outcome,
      finish_reason: 'title',
      input_tokens: usage.input,
      output_tokens: usage.output,
      cost_usd: estimateCostUsd(handle.provider, usage.input, usage.output),
      duration_ms: Date.now() - started,
      error_code: errorCode,
    });
  }
}
