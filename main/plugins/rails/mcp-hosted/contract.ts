/**
 * The hosted-MCP contract (reference §2.5 "Remote MCP plugins"): the signed manifest pins the exact
 * tool names and, per tool, `descriptor_sha256` = SHA-256 over the RFC 8785 canonical JSON
 * (canonicalize@5) of `{name, inputSchema, outputSchema, annotations}` as the upstream sends them
 * (an absent outputSchema or annotations is `null`). The check is all-or-none: one declared tool
 * missing or one hash changed is `upstream_contract_mismatch` and zero tools. Upstream tools the
 * manifest does not declare are dropped by name before their schemas are parsed, so a hostile extra
 * descriptor costs nothing but its name; a declared tool's schemas are measured (≤256 KiB, depth
 * ≤32, ≤20,000 nodes: limits.ts) before they are parsed or hashed, and one over is a protocol error.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { FermixError } from '../../../core/errors.js';
import type { McpToolDefinition } from '../../../mcp/client.js';
import { checkToolSchemas } from './limits.js';

export interface DeclaredTool {
  /** The upstream name (tool_name_mode preserve: the registered name too). */
  name: string;
  descriptor_sha256: string;
}

export function descriptorSha256(tool: { name: string; inputSchema?: unknown; outputSchema?: unknown; annotations?: unknown }): string {
  const text = canonicalize({ name: tool.name, inputSchema: tool.inputSchema ?? null, outputSchema: tool.outputSchema ?? null, annotations: tool.annotations ?? null });
  if (text === undefined) throw new Error('descriptor is not JSON');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function mismatch(plugin: string, why: string, tools: string[]): FermixError {
  return new FermixError({
    code: 'upstream_contract_mismatch',
    message: `The ${plugin} service no longer matches the tool contract its signed plugin pins (${why}), so none of its tools are registered.`,
    hint: `Wait for an updated plugin and run \`fermix plugins upgrade ${plugin}\`; \`fermix plugins doctor ${plugin}\` shows the state.`,
    data: { plugin, tools },
  });
}

/**
 * `upstream` is the raw tools/list items (only `name` looked at first); `toolSchema` is the SDK's (passed
 * in by the session, which loaded the SDK). Returns the declared tools'
 * parsed definitions in manifest order, or throws `upstream_contract_mismatch`.
 */
export function checkContract(plugin: string, declared: readonly DeclaredTool[], upstream: readonly { name?: unknown }[], toolSchema: typeof ToolSchema): McpToolDefinition[] {
  const wanted = new Map(declared.map((tool) => [tool.name, tool]));
  const byName = new Map<string, unknown>();
  for (const item of upstream) {
    if (typeof item.name !== 'string' || !wanted.has(item.name)) continue; // ignored before any parsing
    if (byName.has(item.name)) throw mismatch(plugin, `${item.name} is listed twice`, [item.name]);
    byName.set(item.name, item);
  }
  const missing = declared.filter((tool) => !byName.has(tool.name)).map((tool) => tool.name);
  if (missing.length > 0) throw mismatch(plugin, `missing: ${missing.join(', ')}`, missing);
  const out: McpToolDefinition[] = [];
  const changed: string[] = [];
  for (const tool of declared) checkToolSchemas(plugin, byName.get(tool.name) as { name?: unknown });
  for (const tool of declared) {
    const parsed = toolSchema.safeParse(byName.get(tool.name));
    if (!parsed.success) {
      changed.push(tool.name);
      continue;
    }
    const definition = parsed.data as McpToolDefinition;
    if (descriptorSha256(definition) !== tool.descriptor_sha256) changed.push(tool.name);
    else out.push(definition);
  }
  if (changed.length > 0) throw mismatch(plugin, `changed: ${changed.join(', ')}`, changed);
  return out;
}
