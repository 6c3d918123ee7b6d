/**
 * A hosted tool's `collection_policy` (reference §3.2: `{paginated: true, request_limit_pointer,
 * default_limit, result_items_pointer, max_returned_items ≤ 100}`): how many items one call may ask
 * for and bring back, whatever the model asked and whatever the service sent.
 *
 * Request: the limit at `request_limit_pointer` (in the model's arguments) becomes `default_limit`
 * when absent, and is clamped to 1…`max_returned_items` when present (a fraction is rounded down); a
 * limit that is not a number, or a pointer blocked by a non-object on the way, is `invalid_arguments`
 * and nothing is sent.
 *
 * Result — what the model sees: the body is the structured content, or else the text parsed as JSON.
 * When the array at `result_items_pointer` holds more than `max_returned_items`, only the first
 * `max_returned_items` are kept, and then
 *   - `data` is the body with the shortened array (same shape, so the output schema still holds);
 *   - `text` is that body as JSON — re-derived, because the service's own text may list every item —
 *     followed by one bracketed note naming how many of how many items were kept and where;
 *   - the audit record notes `items_truncated` and `items_returned`.
 * A lowered limit is named in the same note, so a model that asked for 80 knows why it got 25.
 * A body that is not JSON, or has no array at the pointer, passes unchanged: there is nothing to count.
 */
import type { ToolResult } from '../../../core/capabilities/index.js';
import { FermixError } from '../../../core/errors.js';
import type { ManifestTool } from '../../manifest.js';
import { parsePointer, readPointer, writePointer } from './json-pointer.js';

export type CollectionPolicy = NonNullable<ManifestTool['collection_policy']>;

export interface LimitedRequest {
  args: Record<string, unknown>;
  /** The model's limit when it was lowered to `max_returned_items`, else null. */
  lowered: number | null;
}

const tokensOf = (pointer: string): string[] => {
  const tokens = parsePointer(pointer);
  // The manifest schema has already refused an invalid pointer; this only guards a hand-built policy.
  if (tokens === null) throw new Error(`not a JSON pointer: ${pointer}`);
  return tokens;
};

/** The arguments to send: the limit set or clamped (the caller's object is not changed). */
export function limitRequest(plugin: string, tool: string, policy: CollectionPolicy, args: Record<string, unknown>): LimitedRequest {
  const tokens = tokensOf(policy.request_limit_pointer);
  const asked = readPointer(args, tokens);
  let limit = policy.default_limit;
  let lowered: number | null = null;
  if (asked !== undefined) {
    if (typeof asked !== 'number' || !Number.isFinite(asked)) {
      throw new FermixError({
        code: 'invalid_arguments',
        message: `${tool} was given a limit at ${policy.request_limit_pointer} that is not a number, so nothing was sent.`,
        hint: `Pass a whole number from 1 to ${policy.max_returned_items}, or leave it out for ${policy.default_limit}.`,
        data: { plugin, tool, pointer: policy.request_limit_pointer },
      });
    }
    limit = Math.min(policy.max_returned_items, Math.max(1, Math.floor(asked)));
    if (asked > policy.max_returned_items) lowered = asked;
  }
  const sent = writePointer(args, tokens, limit);
  if (sent === null) {
    throw new FermixError({
      code: 'invalid_arguments',
      message: `${tool} could not take a limit at ${policy.request_limit_pointer}: something other than an object is in the way, so nothing was sent.`,
      hint: `Call ${tool} again with the arguments its schema describes.`,
      data: { plugin, tool, pointer: policy.request_limit_pointer },
    });
  }
  return { args: sent, lowered };
}

function bodyOf(result: ToolResult): unknown {
  if (result.data !== undefined) return result.data;
  try {
    return JSON.parse(result.text);
  } catch {
    return undefined;
  }
}

/** The result with at most `max_returned_items` items at `result_items_pointer` (see the file comment for what the model sees). */
export function capResultItems(policy: CollectionPolicy, request: LimitedRequest, result: ToolResult): ToolResult {
  const tokens = tokensOf(policy.result_items_pointer);
  const body = bodyOf(result);
  const items = body === undefined ? undefined : readPointer(body, tokens);
  const max = policy.max_returned_items;
  const loweredNote = request.lowered === null ? '' : ` The requested limit ${request.lowered} was lowered to ${max}, this plugin's most per call.`;
  if (!Array.isArray(items) || items.length <= max) {
    return loweredNote ? { ...result, text: `${result.text}\n\n[${loweredNote.trim()}]` } : result;
  }
  const kept = items.slice(0, max);
  const capped = tokens.length === 0 ? kept : writePointer(body as Record<string, unknown>, tokens, kept);
  const note = `[Items truncated: kept the first ${max} of ${items.length} items at ${policy.result_items_pointer || '(the whole result)'}; this plugin returns at most ${max} per call. Ask for a narrower query or the next page.${loweredNote}]`;
  return {
    ...result,
    data: capped,
    text: `${JSON.stringify(capped)}\n\n${note}`,
    audit: { ...result.audit, items_truncated: true, items_returned: max, items_received: items.length },
  };
}
