/**
 * Inbound MCP: Fermix as an MCP server (`fermix mcp serve` on stdio, `/mcp` on the daemon over
 * Streamable HTTP). Off unless `[mcp.inbound] enabled`. What is exposed, in order:
 *   enabled → trust (registry.list_for with `[mcp.inbound] trust`, operator by default) → kind builtin
 *   only (outbound MCP tools are never re-exposed: a loop between two agents) → an executor present →
 *   not hidden_from_agent → policy class (read_only, plus read_write/exec/network only when listed;
 *   external_api and gui_control never) → allowed_tools → denied_tools.
 * The deferral bridges (tool_search, tool_call) are never exposed: tool_call would reach every tool,
 * MCP ones included, around this filter. Every call goes through the one invoke boundary with origin
 * `mcp-inbound` (audited, unattended: an `ask` is a denial, since nobody can answer it).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Capability, ToolResult } from '../core/capabilities/capability.js';
import type { CapabilityRegistry } from '../core/capabilities/registry.js';
import { FermixError, isFermixError } from '../core/errors.js';
import { FERMIX_VERSION } from '../core/version.js';
import type { McpInboundConfig } from './config.js';

const NEVER_EXPOSED = new Set(['tool_search', 'tool_call']);

export interface ExposedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  policy_class: string;
}

export function exposedCapabilities(registry: CapabilityRegistry, inbound: McpInboundConfig): Capability[] {
  if (!inbound.enabled) return [];
  const classes = new Set<string>(['read_only', ...inbound.policy_classes]);
  const allowed = inbound.allowed_tools === undefined ? null : new Set(inbound.allowed_tools);
  const denied = new Set(inbound.denied_tools);
  return registry
    .list_for({ trust: inbound.trust, kind: 'builtin' })
    .filter((cap) => cap.kind === 'builtin' && typeof cap.executor === 'function' && !cap.hidden_from_agent && !NEVER_EXPOSED.has(cap.name))
    .filter((cap) => classes.has(cap.policy_class))
    .filter((cap) => (allowed === null || allowed.has(cap.name)) && !denied.has(cap.name));
}

export function toExposed(cap: Capability): ExposedTool {
  const schema = cap.parameters && typeof cap.parameters === 'object' ? cap.parameters : { type: 'object' };
  return { name: cap.name, description: cap.description, inputSchema: { type: 'object', ...schema }, policy_class: cap.policy_class };
}

export function notExposed(name: string): FermixError {
  return new FermixError({ code: 'not_exposed', message: `${name} is not exposed over inbound MCP.`, hint: 'Run `fermix mcp list-exposed` to see what is; [mcp.inbound] policy_classes, allowed_tools and denied_tools in config.toml decide it.', data: { name } });
}

export function inboundDisabled(): FermixError {
  return new FermixError({ code: 'mcp_inbound_disabled', message: 'Inbound MCP is turned off.', hint: 'Set `[mcp.inbound] enabled = true` in config.toml (`fermix config path` shows where it is).' });
}

/** A tool result (or a Fermix error) as an MCP CallToolResult: errors are results with isError, as MCP asks. */
export function toCallResult(outcome: { result: ToolResult } | { error: unknown }): CallToolResult {
  if ('error' in outcome) {
    const error = outcome.error;
    const text = isFermixError(error) ? `${error.code}: ${error.message}${error.hint ? ` ${error.hint}` : ''}` : 'internal_error: the tool failed inside Fermix.';
    return { content: [{ type: 'text', text }], isError: true };
  }
  const { result } = outcome;
  const content: CallToolResult['content'] = [{ type: 'text', text: result.text }];
  for (const image of result.images ?? []) content.push({ type: 'image', data: image.base64, mimeType: image.mimeType });
  const structured = result.data !== null && typeof result.data === 'object' && !Array.isArray(result.data) ? (result.data as Record<string, unknown>) : undefined;
  return structured ? { content, structuredContent: structured } : { content };
}

export interface InboundBackend {
  list(): Promise<ExposedTool[]> | ExposedTool[];
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

/**
 * The SDK's low-level server with our two handlers; one per stdio session or per HTTP request.
 * The SDK (its zod message schemas, ajv) is loaded with the first inbound session, not at daemon start-up.
 */
export async function createInboundServer(backend: InboundBackend): Promise<Server> {
  const [{ Server }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
  const server = new Server({ name: 'fermix', version: FERMIX_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await backend.list()).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as { type: 'object' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => backend.call(request.params.name, request.params.arguments ?? {}, extra.signal));
  return server;
}
