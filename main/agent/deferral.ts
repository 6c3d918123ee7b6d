/**
 * Tool-schema deferral (seed 000 "Tool-schema deferral", reference §2.2). Every `mcp` capability and
 * every capability of category `plugin` is deferred: its schema leaves the provider request, its
 * name stays in the runtime prompt, and tool_search / tool_describe / tool_call reach it. Built-ins,
 * the bridges included, are never deferred; anything else stays advertised (fail-safe).
 */
import type { ToolSet } from 'ai';
import { aiSdk } from './ai-runtime.js';
import type { Capability } from '../core/capabilities/index.js';

export const BRIDGE_NAMES = ['tool_search', 'tool_describe', 'tool_call'] as const;

export function isDeferrable(cap: Capability): boolean {
  if (cap.metadata.deferral_bridge === true) return false;
  return cap.kind === 'mcp' || cap.metadata.category === 'plugin';
}

export interface ToolPresentation {
  /** Schemas sent to the provider. */
  advertised: Capability[];
  /** Names only (runtime prompt); reachable through the bridges and by direct call. */
  deferred: Capability[];
  /** False when deferral is off, or on but unusable (bridges not visible to this caller). */
  active: boolean;
}

/**
 * Splits the caller's trust-filtered list. The dispatchable set is advertised ∪ deferred, computed from
 * that same list, so deferral never widens or narrows what a caller may run.
 */
export function presentTools(visible: readonly Capability[], enabled: boolean): ToolPresentation {
  const names = new Set(visible.map((cap) => cap.name));
  const bridgesVisible = names.has('tool_search') && names.has('tool_describe');
  if (!enabled || !bridgesVisible) {
    // Off: every schema inline, and no bridge offered (a bridge left registered would search nothing).
    const advertised = enabled ? [...visible] : visible.filter((cap) => cap.metadata.deferral_bridge !== true);
    return { advertised, deferred: [], active: false };
  }
  const advertised: Capability[] = [];
  const deferred: Capability[] = [];
  for (const cap of visible) (isDeferrable(cap) ? deferred : advertised).push(cap);
  return { advertised, deferred, active: true };
}

/** The provider-facing schema: `$schema` costs tokens on every request and tells the model nothing. */
export function providerSchema(cap: Capability): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = cap.parameters;
  return rest;
}

/**
 * AI SDK tool definitions without `execute` (the loop dispatches through the invoker) and without
 * validation (the invoker validates, audits the refusal, and names the field).
 */
export function toSdkTools(caps: readonly Capability[]): ToolSet {
  const { jsonSchema, tool } = aiSdk();
  const tools: ToolSet = {};
  for (const cap of caps) tools[cap.name] = tool({ description: cap.description, inputSchema: jsonSchema(providerSchema(cap) as never) });
  return tools;
}

/** Which plugin a deferred tool belongs to, as tool_search reports it: the plugin name or "mcp". */
export function ownerOf(cap: Capability): string {
  if (typeof cap.metadata.plugin === 'string' && cap.metadata.plugin) return cap.metadata.plugin;
  return 'mcp';
}
