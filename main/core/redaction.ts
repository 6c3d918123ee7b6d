/**
 * Secret redaction for logs, audit arguments and support bundles: `redactSecrets` scrubs free text,
 * `redactValue` walks structured data. Replacements read `[REDACTED:<kind>]` as in Fermix's log formatter.
 * The rules themselves are the one secret scanner in secret-scanner.ts (linear time, checked against
 * secretlint's recommended preset).
 */
import { isSecretFieldName, redactionMarker, scanAndRedact } from './secret-scanner.js';

export { cannotHoldSecret, isSecretFieldName, redactionMarker, type RedactionKind } from './secret-scanner.js';

/** Replaces every secret found in `text` with `[REDACTED:<kind>]`. Idempotent. */
export function redactSecrets(text: string): string {
  return scanAndRedact(text);
}

/**
 * Returns a JSON-safe copy of `value` with secrets redacted: strings through `redactSecrets`, values under
 * secret-named keys replaced by `[REDACTED:field]` (null, undefined and booleans are kept: they hold no
 * secret and say whether one was set). Errors become {name, message, stack, …own fields}; cycles become
 * "[Circular]".
 */
export function redactValue(value: unknown): unknown {
  return walk(value, new WeakSet<object>(), 0);
}

// Deeper structures are almost certainly accidental (a whole client object); stop rather than flood the log.
const MAX_DEPTH = 20;

function walk(value: unknown, ancestors: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes]`;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, ancestors, depth + 1));
    if (value instanceof Error) return walkEntries(errorEntries(value), ancestors, depth);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return walk(toJSON.call(value), ancestors, depth + 1);
    return walkEntries(Object.entries(value), ancestors, depth);
  } finally {
    ancestors.delete(value);
  }
}

function errorEntries(error: Error): [string, unknown][] {
  const entries: [string, unknown][] = [['name', error.name], ['message', error.message]];
  for (const entry of Object.entries(error)) entries.push(entry);
  if (error.cause !== undefined) entries.push(['cause', error.cause]);
  if (error.stack !== undefined) entries.push(['stack', error.stack]);
  return entries;
}

function walkEntries(entries: [string, unknown][], ancestors: WeakSet<object>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    const safeKey = redactSecrets(key);
    if (isSecretFieldName(key) && item !== null && item !== undefined && typeof item !== 'boolean') {
      out[safeKey] = redactionMarker('field');
    } else {
      const walked = walk(item, ancestors, depth + 1);
      if (walked !== undefined) out[safeKey] = walked;
    }
  }
  return out;
}
