/**
 * What a hosted plugin's manifest says about its tools, read once per connect: the declared contract
 * for the chosen profile (plus the setup tools the rail itself calls), the upstream name of each tool,
 * the workspace argument hidden from the model, and the result envelope (`result_contract`) that turns
 * `{ok:false, status, message}` into a named error — `out_of_credits` passed through as itself.
 */
import type { ToolResult } from '../../../core/capabilities/index.js';
import { FermixError } from '../../../core/errors.js';
import type { PluginManifest } from '../../manifest.js';
import type { DeclaredTool } from './contract.js';

/** Upstream statuses passed through under their own code (everything else is `remote_tool_error`). */
const PASSED_STATUSES = new Set(['out_of_credits', 'insufficient_credential_scope', 'not_found', 'rate_limited']);

export const upstreamName = (manifest: PluginManifest, registered: string): string =>
  manifest.runtime?.kind === 'remote_mcp' && manifest.runtime.tool_name_mode === 'prefix' ? registered.slice(manifest.name.length + 1) : registered;

export function profileOf(manifest: PluginManifest, chosen: string | null) {
  const profiles = manifest.tool_profiles ?? [];
  const profile = profiles.find((entry) => entry.name === chosen) ?? profiles.find((entry) => entry.default);
  const setup = new Set(manifest.setup_tools ?? []);
  // Without profiles every declared non-setup tool is the (read) profile.
  return profile ?? { name: 'default', display_name: 'Default', default: true, required_credential_scope: 'read' as const, scope_visibility: 'none' as const, tools: manifest.tools.filter((tool) => !setup.has(tool.name)).map((tool) => tool.name) };
}

/** The contract checked on connect: the profile's tools and the setup tools, all-or-none. */
export function declaredContract(manifest: PluginManifest, toolNames: readonly string[]): DeclaredTool[] {
  return toolNames.map((name) => {
    const tool = manifest.tools.find((entry) => entry.name === name);
    if (!tool?.descriptor_sha256) throw new Error(`${manifest.name}: ${name} has no descriptor_sha256`);
    return { name: upstreamName(manifest, name), descriptor_sha256: tool.descriptor_sha256 };
  });
}

/** The model-facing schema: the workspace argument is removed (it is injected at call time). */
export function withoutArgument(schema: unknown, argument: string | undefined): Record<string, unknown> {
  const base = schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : { type: 'object' };
  if (!argument) return base;
  const properties = { ...((base.properties as Record<string, unknown> | undefined) ?? {}) };
  delete properties[argument];
  const required = Array.isArray(base.required) ? (base.required as string[]).filter((name) => name !== argument) : undefined;
  return { ...base, properties, ...(required ? { required } : {}) };
}

export function refuseModelWorkspace(plugin: string, tool: string, argument: string): FermixError {
  return new FermixError({
    code: 'workspace_argument_refused',
    message: `${tool} was given a ${argument}, but ${plugin} works only in the workspace chosen on its setup screen, so nothing was sent.`,
    hint: `Call ${tool} without ${argument}; to work in another workspace, choose it on the Plugins screen (${plugin} → Setup).`,
    data: { plugin, tool, argument },
  });
}

/** Applies `result_contract` (json_boolean): a false success field is an error named by the status field. */
export function applyResultContract(manifest: PluginManifest, tool: string, result: ToolResult): ToolResult {
  const contract = manifest.result_contract;
  if (!contract) return result;
  let body = result.data;
  if (body === undefined) {
    try {
      body = JSON.parse(result.text);
    } catch {
      return result;
    }
  }
  if (!body || typeof body !== 'object') return result;
  const record = body as Record<string, unknown>;
  if (record[contract.success_field] !== false) return { ...result, data: body };
  const status = typeof record[contract.status_field] === 'string' ? (record[contract.status_field] as string) : 'error';
  const said = typeof record[contract.message_field] === 'string' ? (record[contract.message_field] as string).slice(0, 300) : 'no message';
  const code = PASSED_STATUSES.has(status) ? status : 'remote_tool_error';
  const hint = code === 'out_of_credits' ? `Add credits in your ${manifest.display_name} account, or use a tool that costs none.` : 'Check the arguments and try again.';
  throw new FermixError({ code, message: `${manifest.display_name} refused ${tool} (${status}): ${said}`, hint, data: { plugin: manifest.name, tool, status } });
}
