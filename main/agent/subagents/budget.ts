/**
 * The subagents result budget (reference §2.9): 60,000 bytes of worker output in total, split evenly
 * across the workers, each answer cut at a UTF-8-safe boundary so no worker can crowd out the others
 * and the model never receives half a character.
 */
export const SUBAGENT_OUTPUT_BUDGET_BYTES = 60_000;

/** The first `maxBytes` bytes of `text`, never splitting a code point; `truncated` when anything was cut. */
export function cutUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = Math.max(0, maxBytes);
  // Back up over continuation bytes (10xxxxxx) so the cut lands on the start of a character.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

/** Each worker's share of the budget (an even split; the remainder bytes are simply unused). */
export function shareOf(workers: number, budget = SUBAGENT_OUTPUT_BUDGET_BYTES): number {
  return Math.floor(budget / Math.max(1, workers));
}
