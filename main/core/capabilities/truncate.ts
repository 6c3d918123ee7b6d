/**
 * Output truncation at the invoke boundary. A tool's text is capped (100,000 characters by default) so
 * one call cannot flood the model's context; Fermix appends one note saying how much was cut and how
 * to get the rest, naming the tool's own paging argument when it has one.
 */
import type { Capability, ToolResult } from './capability.js';
import { utf8Length } from './runtime.js';

/** Argument names that page through output, in the order a note should suggest them. */
const PAGING_ARGUMENTS = ['offset', 'start_line', 'page', 'cursor'] as const;

function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function pagingArgument(cap: Capability): string | null {
  const properties = cap.parameters.properties;
  if (properties === null || typeof properties !== 'object') return null;
  return PAGING_ARGUMENTS.find((key) => key in (properties as Record<string, unknown>)) ?? null;
}

export interface TruncatedResult {
  result: ToolResult;
  truncated: boolean;
  /** UTF-8 size of what the tool produced (text plus base64 images), before truncation. */
  bytes: number;
}

export function truncateResult(cap: Capability, result: ToolResult, maxChars: number): TruncatedResult {
  const imageBytes = (result.images ?? []).reduce((sum, image) => sum + (typeof image.base64 === 'string' ? image.base64.length : 0), 0);
  const bytes = utf8Length(result.text) + imageBytes;
  if (result.text.length <= maxChars) return { result, truncated: false, bytes };

  let cut = maxChars;
  // Never split a surrogate pair: half an emoji is invalid UTF-16 and some providers reject it.
  const last = result.text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  const total = result.text.length;
  const paging = pagingArgument(cap);
  const how = paging === null ? `call ${cap.name} again with narrower arguments (a smaller range, a more specific path or pattern)` : `call ${cap.name} again with \`${paging}\` set past what you have, or with narrower arguments`;
  const note = `\n\n[Output truncated: showed the first ${formatCount(cut)} of ${formatCount(total)} characters; ${formatCount(total - cut)} were cut. To see the rest, ${how}.]`;
  return { result: { ...result, text: result.text.slice(0, cut) + note }, truncated: true, bytes };
}
