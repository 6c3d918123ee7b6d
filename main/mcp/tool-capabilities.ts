/**
 * Outbound MCP tools as capabilities: kind mcp, group mcp, policy_class external_api unless
 * `[mcp.servers.<s>.tools.<t>] policy_class` overrides it, `hidden_from_agent` honoured. Deferral
 * (main/agent/deferral.ts) keeps every kind-mcp tool out of the prompt and reachable via tool_search.
 * The executor asks pinning first, so a changed definition never runs unreviewed.
 */
import type { Capability, ToolResult } from '../core/capabilities/capability.js';
import type { CapabilityRegistry } from '../core/capabilities/registry.js';
import type { CancellationView } from '../core/capabilities/runtime.js';
import type { McpToolDefinition } from './client.js';
import type { McpServerConfig } from './config.js';
import { nameTools } from './naming.js';
import type { Pinning } from './pinning.js';

/** The registry family of operator servers; plugin rails use their own metadata (plugin: NAME). */
export const OPERATOR_FAMILY = { mcp_source: 'operator' } as const;

/** Provider tool descriptions get long; the registry keeps the full text for tool_search. */
const DESCRIPTION_FALLBACK = 'A tool of an MCP server.';

export interface BuildOptions {
  server: string;
  config: McpServerConfig;
  tools: readonly McpToolDefinition[];
  registry: CapabilityRegistry;
  pinning: Pinning;
  call: (tool: string, args: Record<string, unknown>, signal: AbortSignal | CancellationView) => Promise<ToolResult>;
  onCollision?: (tool: string, registered: string) => void;
}

export function buildToolCapabilities(options: BuildOptions): Capability[] {
  const { server, config } = options;
  const family = (cap: Capability) => cap.kind === 'mcp' && cap.metadata.mcp_source === OPERATOR_FAMILY.mcp_source && cap.metadata.mcp_server === server;
  const taken = new Set(options.registry.list().filter((cap) => !family(cap)).map((cap) => cap.name));
  const named = nameTools(server, options.tools.map((tool) => tool.name), taken);
  const remote = config.url !== undefined;
  // Progress may extend a call up to 10 timeouts (client.ts); the invoke boundary's own timer sits just above.
  const outerTimeout = config.timeout_ms * 10 + 1_000;
  return options.tools.map((tool, index) => {
    const { name, suffixed } = named[index];
    if (suffixed === 'collision') options.onCollision?.(tool.name, name);
    const override = config.tools[tool.name] ?? {};
    const cap: Capability = {
      name,
      description: tool.description?.trim() || DESCRIPTION_FALLBACK,
      parameters: tool.inputSchema && typeof tool.inputSchema === 'object' ? tool.inputSchema : { type: 'object' },
      output_schema: tool.outputSchema,
      kind: 'mcp',
      hidden_from_agent: override.hidden_from_agent ?? false,
      policy_class: override.policy_class ?? 'external_api',
      metadata: {
        category: 'mcp',
        plugin: 'mcp',
        ...OPERATOR_FAMILY,
        mcp_server: server,
        mcp_tool: tool.name,
        // Shown in the window and doctor: content sent to this tool leaves the machine.
        mcp_remote: remote,
        failure_modes: [
          { tag: 'mcp_tool_changed', description: 'The server changed this tool\'s definition; the owner must accept the change first.' },
          { tag: 'mcp_timeout', description: 'The server did not answer in time.' },
        ],
      },
      group: 'mcp',
      scope_requirements: [],
      audit_behavior: 'redact_args',
      is_stateful: false,
      timeout_ms: outerTimeout,
      // The SDK only serializes the arguments (JSON on the server's stdin or in an HTTP body).
      passes_args_through: true,
      // Not async: with no unreviewed change (the usual case) the request is written to the server within
      // this call, so the invoke boundary's audit bookkeeping overlaps the server's work instead of preceding it.
      executor: (args, context) => {
        if (options.pinning.needsCheck(server, tool.name)) {
          return options.pinning.check(server, tool.name, cap, args, context).then(() => options.call(tool.name, args, context.cancellation ?? context.signal));
        }
        return options.call(tool.name, args, context.cancellation ?? context.signal);
      },
    };
    return cap;
  });
}
