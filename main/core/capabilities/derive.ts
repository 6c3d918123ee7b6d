/**
 * THE one place where Voss's `is_mutating` / `is_network` are derived from Fermix's `policy_class`
 * (ARCHITECTURE.md §4: "derive what can be derived and say so in one place").
 *
 * Mutating classes (need gate approval on attended turns, denied in `read_only` mode):
 * - read_write, exec, gui_control — they change local state, spawn processes or drive the desktop;
 * - external_api — Voss's rule is "mutating = needs approval", and Fermix files every MCP tool and
 *   `subagents`/`generate_image` under external_api: they can change remote state (send mail, create
 *   issues, spend money), so they are treated as mutating. An MCP tool that is known to be read-only
 *   (e.g. its server sets `readOnlyHint`) can say so with an explicit `is_mutating: false`.
 * Network classes (default-deny for a role without the `net` group): network, external_api.
 * An explicitly set `is_mutating` / `is_network` always wins over the derivation.
 */
import type { AuditBehavior, Capability, CapabilityKind, CapabilityMetadata, JsonSchema, PolicyClass } from './capability.js';

export const MUTATING_CLASSES: ReadonlySet<PolicyClass> = new Set<PolicyClass>(['read_write', 'exec', 'gui_control', 'external_api']);
export const NETWORK_CLASSES: ReadonlySet<PolicyClass> = new Set<PolicyClass>(['network', 'external_api']);

/** The invoke boundary's per-call timeout when a capability sets none (ms). */
export const DEFAULT_TIMEOUT_MS = 120_000;

type Derivable = Pick<Capability, 'policy_class' | 'is_mutating' | 'is_network'>;

export function isMutating(cap: Derivable): boolean {
  return cap.is_mutating ?? MUTATING_CLASSES.has(cap.policy_class);
}

export function isNetwork(cap: Derivable): boolean {
  return cap.is_network ?? NETWORK_CLASSES.has(cap.policy_class);
}

/**
 * The fully derived, serializable view shown by `capabilities list|inspect` and sent over the API:
 * every optional field present, the executor replaced by `has_executor`, and where each derived flag
 * came from (so `inspect` can say "mutating (from policy_class exec)").
 */
export interface NormalizedCapability {
  name: string;
  description: string;
  parameters: JsonSchema;
  output_schema: JsonSchema | null;
  kind: CapabilityKind;
  has_executor: boolean;
  hidden_from_agent: boolean;
  policy_class: PolicyClass;
  metadata: CapabilityMetadata;
  is_mutating: boolean;
  is_network: boolean;
  derived_from: { is_mutating: 'explicit' | 'policy_class'; is_network: 'explicit' | 'policy_class' };
  group: string;
  scope_requirements: string[];
  audit_behavior: AuditBehavior;
  is_stateful: boolean;
  timeout_ms: number;
}

export function normalizeCapability(cap: Capability): NormalizedCapability {
  return {
    name: cap.name,
    description: cap.description,
    parameters: cap.parameters,
    output_schema: cap.output_schema ?? null,
    kind: cap.kind,
    has_executor: typeof cap.executor === 'function',
    hidden_from_agent: cap.hidden_from_agent,
    policy_class: cap.policy_class,
    metadata: cap.metadata,
    is_mutating: isMutating(cap),
    is_network: isNetwork(cap),
    derived_from: {
      is_mutating: cap.is_mutating === undefined ? 'policy_class' : 'explicit',
      is_network: cap.is_network === undefined ? 'policy_class' : 'explicit',
    },
    group: cap.group,
    scope_requirements: [...cap.scope_requirements],
    audit_behavior: cap.audit_behavior,
    is_stateful: cap.is_stateful,
    timeout_ms: cap.timeout_ms ?? DEFAULT_TIMEOUT_MS,
  };
}
