/**
 * The hosted rail's hard limits and deadlines (reference §2.5 "Remote MCP plugins" table), as code
 * constants — never config — and the small checks that enforce them. Everything that a remote peer
 * sends is measured here before it is parsed further: a header block, a session id, an SSE body, a
 * tool schema, a result; what we send is measured too (request size and depth). A peer that breaks a
 * limit is a protocol error (`remote_protocol_error`), never a retry.
 */
import { FermixError } from '../../../core/errors.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export const HOSTED_LIMITS = Object.freeze({
  responseBytes: 4 * MiB,
  headerBlockBytes: 64 * KiB,
  headerValueBytes: 8 * KiB,
  requestBytes: 1 * MiB,
  requestDepth: 64,
  sseEventBytes: 2 * MiB,
  sseStreamBytes: 4 * MiB,
  sseEvents: 256,
  discoveryPages: 10,
  discoveryCursorBytes: 1 * KiB,
  discoveryTools: 128,
  discoveryBytes: 4 * MiB,
  schemaBytes: 256 * KiB,
  schemaDepth: 32,
  schemaNodes: 20_000,
  resultBytes: 2 * MiB,
  resultDepth: 64,
  sessionIdBytes: 256,
  retryAfterMaxMs: 300_000,
  retryAfterDefaultMs: 60_000,
  invalidResultsInARow: 3,
  rediscoveriesPerSession: 3,
  rediscoverySpacingMs: 5_000,
});

export const HOSTED_DEADLINES = Object.freeze({ startupMs: 60_000, connectMs: 10_000, initializeMs: 15_000, discoverPageMs: 15_000, callMs: 60_000, teardownMs: 10_000 });

export function protocolError(plugin: string, what: string, data: Record<string, unknown> = {}): FermixError {
  return new FermixError({ code: 'remote_protocol_error', message: `${plugin} broke a hosted-MCP limit: ${what}.`, hint: `Run \`fermix plugins doctor ${plugin}\`; an updated plugin or service fix may be needed.`, data: { plugin, ...data } });
}

/** Depth and node count of a JSON value, walked iteratively (a hostile 10,000-deep value cannot blow the stack); stops early past `maxNodes`. */
export function jsonShape(value: unknown, maxNodes = Number.POSITIVE_INFINITY): { depth: number; nodes: number } {
  let depth = 0;
  let nodes = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, level] = stack.pop()!;
    nodes += 1;
    if (level > depth) depth = level;
    if (nodes > maxNodes) break;
    if (item !== null && typeof item === 'object') for (const child of Object.values(item as Record<string, unknown>)) stack.push([child, level + 1]);
  }
  return { depth, nodes };
}

/** A declared tool's schemas, before they are parsed or hashed: ≤256 KiB, depth ≤32, ≤20,000 nodes each. */
export function checkToolSchemas(plugin: string, tool: { name?: unknown; inputSchema?: unknown; outputSchema?: unknown }): void {
  for (const [field, schema] of [['inputSchema', tool.inputSchema], ['outputSchema', tool.outputSchema]] as const) {
    if (schema === undefined) continue;
    const bytes = Buffer.byteLength(JSON.stringify(schema) ?? '');
    if (bytes > HOSTED_LIMITS.schemaBytes) throw protocolError(plugin, `the ${field} of ${String(tool.name)} is ${bytes} bytes (at most ${HOSTED_LIMITS.schemaBytes})`, { tool: tool.name });
    const shape = jsonShape(schema, HOSTED_LIMITS.schemaNodes);
    if (shape.nodes > HOSTED_LIMITS.schemaNodes) throw protocolError(plugin, `the ${field} of ${String(tool.name)} has more than ${HOSTED_LIMITS.schemaNodes} nodes`, { tool: tool.name });
    if (shape.depth > HOSTED_LIMITS.schemaDepth) throw protocolError(plugin, `the ${field} of ${String(tool.name)} is ${shape.depth} levels deep (at most ${HOSTED_LIMITS.schemaDepth})`, { tool: tool.name });
  }
}

/** The response's header block ≤64 KiB and every value ≤8 KiB; the session id ≤256 bytes. */
export function checkResponseHeaders(plugin: string, headers: Record<string, string | string[] | undefined>): void {
  let block = 0;
  for (const [name, raw] of Object.entries(headers)) {
    for (const value of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) {
      const bytes = Buffer.byteLength(value);
      block += Buffer.byteLength(name) + bytes + 4;
      if (bytes > HOSTED_LIMITS.headerValueBytes) throw protocolError(plugin, `the ${name} header is ${bytes} bytes (at most ${HOSTED_LIMITS.headerValueBytes})`);
      if (name.toLowerCase() === 'mcp-session-id' && bytes > HOSTED_LIMITS.sessionIdBytes) throw protocolError(plugin, `the session id is ${bytes} bytes (at most ${HOSTED_LIMITS.sessionIdBytes})`);
    }
  }
  if (block > HOSTED_LIMITS.headerBlockBytes) throw protocolError(plugin, `the response headers are ${block} bytes (at most ${HOSTED_LIMITS.headerBlockBytes})`);
}

/** An SSE response body (already capped at 4 MiB by the read): ≤256 events, each ≤2 MiB. */
export function checkSseBody(plugin: string, body: Buffer): void {
  if (body.length > HOSTED_LIMITS.sseStreamBytes) throw protocolError(plugin, `the event stream is ${body.length} bytes (at most ${HOSTED_LIMITS.sseStreamBytes})`);
  const events = body.toString('utf8').replace(/\r\n?/g, '\n').split('\n\n').filter((event) => event.trim() !== '');
  if (events.length > HOSTED_LIMITS.sseEvents) throw protocolError(plugin, `the event stream has ${events.length} events (at most ${HOSTED_LIMITS.sseEvents})`);
  for (const event of events) {
    const bytes = Buffer.byteLength(event);
    if (bytes > HOSTED_LIMITS.sseEventBytes) throw protocolError(plugin, `one event is ${bytes} bytes (at most ${HOSTED_LIMITS.sseEventBytes})`);
  }
}

/** What we send: ≤1 MiB and JSON depth ≤64, refused before anything leaves the machine. */
export function checkRequestBody(host: string, body: Buffer): void {
  const refuse = (what: string, data: Record<string, unknown>) => new FermixError({ code: 'request_too_large', message: `The request to ${host} ${what}, more than the hosted rail allows, so it was not sent.`, hint: 'Send less in one call (shorter text, fewer or flatter items).', data });
  if (body.length > HOSTED_LIMITS.requestBytes) throw refuse(`is ${body.length} bytes (cap ${HOSTED_LIMITS.requestBytes})`, { bytes: body.length });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return;
  }
  const { depth } = jsonShape(parsed);
  if (depth > HOSTED_LIMITS.requestDepth) throw refuse(`is ${depth} levels deep (cap ${HOSTED_LIMITS.requestDepth})`, { depth });
}

/** A tools/call result is invalid (counts toward a broken peer) past 2 MiB is separate; past depth 64 it is invalid. */
export function resultDepthExceeded(result: unknown): number | null {
  const { depth } = jsonShape(result);
  return depth > HOSTED_LIMITS.resultDepth ? depth : null;
}

/**
 * Retry-After (seconds or an HTTP date) in ms, at most 300,000; absent or unreadable is the 60,000 ms
 * default, so a busy service without the header is still left alone for a minute.
 */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number {
  if (header === null || header === undefined || header.trim() === '') return HOSTED_LIMITS.retryAfterDefaultMs;
  const text = header.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return HOSTED_LIMITS.retryAfterDefaultMs;
    ms = at - now;
  }
  return Math.min(Math.max(0, Math.ceil(ms)), HOSTED_LIMITS.retryAfterMaxMs);
}

/**
 * `notifications/tools/list_changed` gate: at most 3 rediscoveries per session, at least 5 s apart.
 * `request()` says how long to wait before the next rediscovery (0 = now), or null once the cap is spent.
 */
export function createRediscoveryGate(options: { max: number; spacingMs: number } = { max: HOSTED_LIMITS.rediscoveriesPerSession, spacingMs: HOSTED_LIMITS.rediscoverySpacingMs }, now: () => number = Date.now) {
  let used = 0;
  let last = Number.NEGATIVE_INFINITY;
  return {
    used: () => used,
    request(): number | null {
      if (used >= options.max) return null;
      used += 1;
      const at = Math.max(now(), last + options.spacingMs);
      last = at;
      return at - now();
    },
  };
}
