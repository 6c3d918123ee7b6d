/**
 * JSON Pointer (RFC 6901), the few operations the hosted rail's `collection_policy` and
 * `argument_guards` need. No JSON-pointer package is a dependency, and these are ~50 lines: parse
 * (`""` is the whole document; otherwise `/`-separated tokens where `~1` is `/` and `~0` is `~`, and
 * any other `~` is an error), read, and write one value. Array tokens are RFC 6901 indexes only
 * ("0" or no leading zero); `-` (the element past the end) is refused here, since nothing we point at
 * is an append.
 */

/** The reference tokens of `pointer`, or null when it is not a valid RFC 6901 pointer. */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(raw)) return null;
    // ~1 first would turn "~01" into "~1" and then "/": the RFC's order is ~1 → /, then ~0 → ~.
    tokens.push(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return tokens;
}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;
const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => value !== null && typeof value === 'object';

/** One step down: an own property of an object, or an in-range index of an array; undefined otherwise. */
function child(container: unknown, token: string): unknown {
  if (Array.isArray(container)) return ARRAY_INDEX.test(token) ? container[Number(token)] : undefined;
  if (isContainer(container) && Object.hasOwn(container, token)) return (container as Record<string, unknown>)[token];
  return undefined;
}

/** The value at `tokens` in `document`, or undefined when any step is missing. */
export function readPointer(document: unknown, tokens: readonly string[]): unknown {
  let at: unknown = document;
  for (const token of tokens) {
    at = child(at, token);
    if (at === undefined) return undefined;
  }
  return at;
}

/**
 * A copy of `document` with `value` at `tokens`: missing objects on the way are created, nothing
 * else is touched (the caller's arguments are never mutated). Returns null when the way is blocked —
 * a step through a string, number or null, or an array token that is not an index in range — so the
 * caller can refuse instead of overwriting something the model sent.
 */
export function writePointer(document: Record<string, unknown>, tokens: readonly string[], value: unknown): Record<string, unknown> | null {
  if (tokens.length === 0) return null;
  const write = (at: unknown, depth: number): unknown => {
    const token = tokens[depth];
    const last = depth === tokens.length - 1;
    if (Array.isArray(at)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= at.length) return null;
      const next = last ? value : write(at[Number(token)], depth + 1);
      if (next === null && !last) return null;
      const copy = [...at];
      copy[Number(token)] = next;
      return copy;
    }
    if (at !== undefined && !isContainer(at)) return null;
    const record = (at ?? {}) as Record<string, unknown>;
    const next = last ? value : write(Object.hasOwn(record, token) ? record[token] : undefined, depth + 1);
    if (next === null && !last) return null;
    return { ...record, [token]: next };
  };
  return write(document, 0) as Record<string, unknown> | null;
}
