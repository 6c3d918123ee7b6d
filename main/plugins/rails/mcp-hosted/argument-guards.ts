/**
 * A hosted tool's `argument_guards` (reference §3.2: `[{pointer, kind, max_items}]`, ≤ 16), checked
 * on the model's arguments before anything is sent — the service would act on these values (fetch
 * the URLs, store the strings), so a refusal here keeps them on this machine.
 *   - `public_http_url_array`: an array of at most `max_items` http(s) URLs whose hosts are public —
 *     Net.Guard's own URL check (url-policy.ts, always the production policy, never a test one): no
 *     other scheme, no user:password@, no localhost/.local/.internal names, no IP literal in a
 *     loopback, private, link-local, CGNAT, multicast or metadata range (classifyAddress, including
 *     the IPv4-mapped and NAT64 forms). Names are not resolved: the service fetches, not we.
 *   - `bounded_visible_ascii_array`: an array of at most `max_items` strings of printable ASCII
 *     (0x20–0x7E) only, so no control character, no newline and no look-alike Unicode reaches the service.
 * An absent value passes (an optional argument left out); anything else that is not such an array is
 * refused. URLs are `blocked_url` (Net.Guard's tag); the rest is `invalid_arguments`.
 */
import { FermixError, isFermixError } from '../../../core/errors.js';
import { checkUrl, DEFAULT_NET_POLICY } from '../../../net/index.js';
import type { ManifestTool } from '../../manifest.js';
import { parsePointer, readPointer } from './json-pointer.js';

export type ArgumentGuard = NonNullable<ManifestTool['argument_guards']>[number];

const VISIBLE_ASCII = /^[\x20-\x7E]*$/;

function refuse(code: 'blocked_url' | 'invalid_arguments', plugin: string, tool: string, guard: ArgumentGuard, what: string, index?: number): FermixError {
  return new FermixError({
    code,
    message: `${tool} was given ${guard.pointer}${index === undefined ? '' : `[${index}]`} that ${what}, so nothing was sent to ${plugin}.`,
    hint: guard.kind === 'public_http_url_array'
      ? `Pass at most ${guard.max_items} public http(s) URLs (no local, private or link-local hosts, no user:password@), then call ${tool} again.`
      : `Pass at most ${guard.max_items} strings of plain printable ASCII (no control characters, newlines or non-ASCII letters), then call ${tool} again.`,
    data: { plugin, tool, pointer: guard.pointer, guard: guard.kind, ...(index === undefined ? {} : { index }) },
  });
}

/** Throws the first guard's refusal; returns when every guarded value is acceptable or absent. */
export function checkArgumentGuards(plugin: string, tool: string, guards: readonly ArgumentGuard[], args: Record<string, unknown>): void {
  for (const guard of guards) {
    const tokens = parsePointer(guard.pointer);
    if (tokens === null) throw new Error(`not a JSON pointer: ${guard.pointer}`);
    const value = readPointer(args, tokens);
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw refuse('invalid_arguments', plugin, tool, guard, 'is not an array');
    if (value.length > guard.max_items) throw refuse('invalid_arguments', plugin, tool, guard, `has ${value.length} items (at most ${guard.max_items})`);
    value.forEach((item, index) => {
      if (typeof item !== 'string') throw refuse('invalid_arguments', plugin, tool, guard, 'is not a string', index);
      if (guard.kind === 'bounded_visible_ascii_array') {
        if (!VISIBLE_ASCII.test(item)) throw refuse('invalid_arguments', plugin, tool, guard, 'has characters outside printable ASCII (0x20–0x7E)', index);
        return;
      }
      try {
        checkUrl(item, DEFAULT_NET_POLICY);
      } catch (error) {
        if (!isFermixError(error)) throw error;
        // Net.Guard's reason ("only http and https are allowed, not ftp") without its own hint, which speaks of web_fetch.
        const reason = typeof error.data?.reason === 'string' ? error.data.reason : error.message;
        throw refuse('blocked_url', plugin, tool, guard, `is not a public http(s) URL (${reason})`, index);
      }
    });
  }
}
