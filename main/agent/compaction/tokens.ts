/**
 * The product's token estimate: characters / 3.5, no tokenizer loaded. It is only used against the
 * threshold (0.85 of the window), so it needs to be cheap and rather high than low. Measured against
 * gpt-tokenizer's o200k encoding on chat requests (bench/suites/turn-cost.ts prints it): English prose
 * and JSON come out 5–25% above the real count; dense code or non-Latin text can come out below it,
 * and that is what the context-overflow retry is for.
 */
import type { StoredMessage } from '../../store/turns.js';

const CHARS_PER_TOKEN = 3.5;
/** Role markers and framing each message costs on the wire (OpenAI documents ~4 tokens a message). */
const PER_MESSAGE = 6;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function messageTokens(message: StoredMessage): number {
  if (message.role === 'user') return PER_MESSAGE + estimateTokens(message.text) + (message.attachments?.length ?? 0) * 800;
  if (message.role === 'assistant') {
    let total = PER_MESSAGE + estimateTokens(message.text);
    for (const call of message.toolCalls) total += 10 + estimateTokens(call.name) + estimateTokens(JSON.stringify(call.args ?? {}));
    return total;
  }
  // An image is ~800 tokens at the vendors' default detail.
  return PER_MESSAGE + estimateTokens(message.text) + (message.images?.length ?? 0) * 800;
}

export function historyTokens(messages: readonly StoredMessage[]): number {
  let total = 0;
  for (const message of messages) total += messageTokens(message);
  return total;
}
