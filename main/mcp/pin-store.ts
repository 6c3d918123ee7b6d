/**
 * Pinned MCP tool definitions (SQLite table `mcp_tool_pins`, migration "mcp tool pins"). One row per
 * (server, upstream tool): the hash and canonical JSON of the definition the person accepted, and the
 * hash of a changed definition they declined (so they are not asked again for the same update).
 */
import { createHash } from 'node:crypto';
import type { Database } from '../store/database.js';
import type { McpToolDefinition } from './client.js';

export interface Pin {
  server: string;
  tool: string;
  hash: string;
  definition: string;
  pinned_at: string;
  blocked_hash: string | null;
}

/** JSON with object keys sorted at every depth (RFC 8785's ordering; our values are plain JSON). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What is pinned: the description too, because a changed description is how tool poisoning arrives. */
export function pinnedShape(tool: McpToolDefinition): Record<string, unknown> {
  return { name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema ?? {}, outputSchema: tool.outputSchema ?? null, annotations: tool.annotations ?? null };
}

export function definitionHash(tool: McpToolDefinition): string {
  return createHash('sha256').update(canonicalJson(pinnedShape(tool))).digest('hex');
}

export interface PinStore {
  forServer(server: string): Map<string, Pin>;
  pin(server: string, tool: McpToolDefinition, now: Date): void;
  block(server: string, tool: string, hash: string): void;
  forget(server: string): number;
}

export function createPinStore(db: Database): PinStore {
  return {
    forServer(server) {
      const rows = db.all<Pin>('SELECT server, tool, hash, definition, pinned_at, blocked_hash FROM mcp_tool_pins WHERE server = ?', [server]);
      return new Map(rows.map((row) => [row.tool, row]));
    },
    pin(server, tool, now) {
      db.run(
        `INSERT INTO mcp_tool_pins (server, tool, hash, definition, pinned_at, blocked_hash) VALUES (?, ?, ?, ?, ?, NULL)
         ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, definition = excluded.definition, pinned_at = excluded.pinned_at, blocked_hash = NULL`,
        [server, tool.name, definitionHash(tool), canonicalJson(pinnedShape(tool)), now.toISOString()],
      );
    },
    block(server, tool, hash) {
      db.run('UPDATE mcp_tool_pins SET blocked_hash = ? WHERE server = ? AND tool = ?', [hash, server, tool]);
    },
    forget(server) {
      return db.run('DELETE FROM mcp_tool_pins WHERE server = ?', [server]).changes;
    },
  };
}

/** Paths whose values differ between two JSON values (at most `max`), for the person to read. */
export function jsonDifferences(before: unknown, after: unknown, path = '', max = 12, out: string[] = []): string[] {
  if (out.length >= max) return out;
  if (canonicalJson(before) === canonicalJson(after)) return out;
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      const child = path ? `${path}.${key}` : key;
      if (!(key in before)) out.push(`${child} added`);
      else if (!(key in after)) out.push(`${child} removed`);
      else jsonDifferences(before[key], after[key], child, max, out);
      if (out.length >= max) break;
    }
    return out;
  }
  const show = (v: unknown) => {
    const text = JSON.stringify(v) ?? 'null';
    return text.length > 160 ? `${text.slice(0, 157)}...` : text;
  };
  out.push(`${path || '(value)'}: ${show(before)} → ${show(after)}`);
  return out;
}
