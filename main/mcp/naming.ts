/**
 * Registry names for outbound MCP tools (reference §2.5): `mcp_<server>_<tool>`, each segment
 * lowercased with non-alphanumerics turned into `_`, at most 64 bytes (the providers' tool-name limit).
 * A longer name is cut and given `_` + 8 hex of sha256 over the untouched pair; a name already taken
 * (two upstream names that normalise alike, or a clash with another server) gets the same suffix, so the
 * first tool keeps the readable name and the later one stays stable across restarts.
 */
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME_BYTES = 64;
const SUFFIX_BYTES = 9; // "_" + 8 hex

export function normaliseSegment(segment: string): string {
  return segment.toLowerCase().replace(/[^a-z0-9]/g, '_');
}

function suffix(server: string, tool: string, salt = ''): string {
  return `_${createHash('sha256').update(`${server}\u0000${tool}${salt}`).digest('hex').slice(0, 8)}`;
}

export interface NamedTool {
  /** The upstream name, as the server sent it. */
  upstream: string;
  name: string;
  /** Why the suffix was added, when it was. */
  suffixed: 'truncated' | 'collision' | null;
}

/**
 * Names every tool of one server in upstream order. `taken` holds names other families already own;
 * the caller reports collisions (reference: `mcp_name_collision`).
 */
export function nameTools(server: string, upstreamNames: readonly string[], taken: ReadonlySet<string> = new Set(), prefix = 'mcp'): NamedTool[] {
  const used = new Set<string>();
  const head = `${prefix}_${normaliseSegment(server)}_`;
  return upstreamNames.map((upstream) => {
    const plain = head + normaliseSegment(upstream);
    let name = plain;
    let suffixed: NamedTool['suffixed'] = null;
    if (Buffer.byteLength(plain) > MAX_TOOL_NAME_BYTES) {
      name = plain.slice(0, MAX_TOOL_NAME_BYTES - SUFFIX_BYTES) + suffix(server, upstream);
      suffixed = 'truncated';
    }
    let salt = 0;
    while (used.has(name) || taken.has(name)) {
      const tail = suffix(server, upstream, salt === 0 ? '' : String(salt));
      name = plain.slice(0, Math.min(plain.length, MAX_TOOL_NAME_BYTES - SUFFIX_BYTES)) + tail;
      suffixed = 'collision';
      salt += 1;
    }
    used.add(name);
    return { upstream, name, suffixed };
  });
}
