/**
 * The one capability registry (seed 000 "Registry API"). A Map keyed by name: `find` is a plain
 * `Map.get` (the hot path). Every mutation is synchronous, so in a single-threaded runtime no reader
 * can observe half of a family swap; `replace_kind` additionally validates the whole new family before
 * touching the map, so a refused swap changes nothing.
 */
import { FermixError } from '../errors.js';
import { AUDIT_BEHAVIORS, CAPABILITY_KINDS, POLICY_CLASSES, type Capability, type CapabilityKind, type PolicyClass, type Trust } from './capability.js';
import { compileFilter, explainRejection, rejectionStep, type CompiledFilter, type FilterStep, type ListFilter } from './filter.js';
import { createRegistryIndex } from './registry-index.js';
import { isCapabilityGroup, CAPABILITY_GROUPS } from './groups.js';
import { resolvePolicy, type PolicyEnvironment, type PolicySpec, type ResolvedPolicy } from './trust.js';

/** Provider tool-name rule (OpenAI, Anthropic, MCP naming in reference §2.5): `[A-Za-z0-9_-]`, ≤ 64. */
const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export type MetadataMatch = Readonly<Record<string, unknown>>;

export interface RegistryChange {
  version: number;
  added: string[];
  removed: string[];
}
export type RegistryListener = (change: RegistryChange) => void;

export interface Rejection {
  step: FilterStep;
  reason: string;
}

export interface RegistryOptions extends PolicyEnvironment {
  /** A throwing listener must not undo or hide a registry change. Default: rethrown as an unhandled rejection (loud). */
  onListenerError?: (error: unknown) => void;
}

export interface CapabilityRegistry {
  /** Increments on every change; the agent's prompt cache keys on it. */
  readonly version: number;
  readonly size: number;
  register(cap: Capability): void;
  unregister(name: string): boolean;
  unregister_kind(kind: CapabilityKind, metadataMatch?: MetadataMatch): string[];
  replace_kind(kind: CapabilityKind, metadataMatch: MetadataMatch | undefined, caps: readonly Capability[]): { removed: string[]; added: string[] };
  find(name: string): Capability | undefined;
  /** Primitive path: with none of trust/policy/policy_classes the policy step is skipped (`fermix capabilities`). */
  list(filter?: ListFilter): Capability[];
  /** What a caller may see: the policy step always applies, a missing trust is guest. */
  list_for(filter: ListFilter): Capability[];
  /** Why `cap` is not visible under `filter` (policy step always applied), or null when it is. */
  rejection(cap: Capability, filter: ListFilter): Rejection | null;
  /** No-op, as in Fermix: re-syncs go through the owning component (plugin reload, MCP reconnect). */
  refresh(kind?: CapabilityKind): void;
  resolve_policy(trust: Trust | null | undefined, policy?: PolicySpec | null, policyClasses?: readonly PolicyClass[] | null): ResolvedPolicy;
  subscribe(listener: RegistryListener): () => void;
}

function invalid(name: unknown, message: string, hint: string): FermixError {
  return new FermixError({ code: 'invalid_capability', message, hint, data: { name } });
}

/** Refuse a malformed capability at the door, so filters and the gate can trust every field. */
export function validateCapability(cap: Capability): void {
  const name = cap?.name;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw invalid(name, `Capability name ${JSON.stringify(name)} is not a valid tool name.`, 'Use 1–64 characters from A–Z, a–z, 0–9, _ and -.');
  }
  if (!(CAPABILITY_KINDS as readonly string[]).includes(cap.kind)) {
    throw invalid(name, `Capability ${name} has unknown kind ${JSON.stringify(cap.kind)}.`, `Use one of: ${CAPABILITY_KINDS.join(', ')}.`);
  }
  if (!(POLICY_CLASSES as readonly string[]).includes(cap.policy_class)) {
    throw invalid(name, `Capability ${name} has unknown policy class ${JSON.stringify(cap.policy_class)}.`, `Use one of: ${POLICY_CLASSES.join(', ')}.`);
  }
  if (!(AUDIT_BEHAVIORS as readonly string[]).includes(cap.audit_behavior)) {
    throw invalid(name, `Capability ${name} has unknown audit_behavior ${JSON.stringify(cap.audit_behavior)}.`, `Use one of: ${AUDIT_BEHAVIORS.join(', ')}.`);
  }
  if (typeof cap.group !== 'string' || !isCapabilityGroup(cap.group)) {
    throw invalid(name, `Capability ${name} has unknown group ${JSON.stringify(cap.group)}.`, `Use one of: ${CAPABILITY_GROUPS.join(', ')} (groupFor() in groups.ts maps a category to its group).`);
  }
  const lazy = typeof Object.getOwnPropertyDescriptor(cap, 'parameters')?.get === 'function';
  if (!lazy && (cap.parameters === null || typeof cap.parameters !== 'object' || Array.isArray(cap.parameters))) {
    throw invalid(name, `Capability ${name} has no JSON Schema object for its parameters.`, 'Give `parameters` a JSON Schema object, e.g. from z.toJSONSchema().');
  }
  if (typeof cap.metadata?.category !== 'string') {
    throw invalid(name, `Capability ${name} has no metadata.category.`, 'Set metadata.category (see the category table in groups.ts).');
  }
}

/**
 * Stored entries are frozen copies: a caller mutating its object later cannot change a policy class.
 * Built as one object literal with a fixed key order rather than `{...cap}`: V8 (Node 20) turns a frozen
 * spread copy into a slow dictionary object, which made list_for over 5,000 entries ~8× slower (Object.assign copies do not have the problem).
 */
function freezeCapability(cap: Capability): Capability {
  // A lazily computed schema (define-builtin.ts) stays lazy: copying the value would compute it here.
  const lazyParameters = Object.getOwnPropertyDescriptor(cap, 'parameters')?.get;
  const lazyOutput = Object.getOwnPropertyDescriptor(cap, 'output_schema')?.get;
  return Object.freeze({
    name: cap.name,
    description: cap.description,
    get parameters() {
      return lazyParameters ? (lazyParameters.call(cap) as Capability['parameters']) : cap.parameters;
    },
    get output_schema() {
      return lazyOutput ? (lazyOutput.call(cap) as Capability['output_schema']) : cap.output_schema;
    },
    kind: cap.kind,
    executor: cap.executor,
    hidden_from_agent: cap.hidden_from_agent === true,
    policy_class: cap.policy_class,
    metadata: Object.freeze(Object.assign({}, cap.metadata)),
    is_mutating: cap.is_mutating,
    is_network: cap.is_network,
    group: cap.group,
    scope_requirements: Object.freeze([...(cap.scope_requirements ?? [])]) as string[],
    audit_behavior: cap.audit_behavior,
    is_stateful: cap.is_stateful === true,
    timeout_ms: cap.timeout_ms,
    passes_args_through: cap.passes_args_through === true,
  });
}

function matchesFamily(cap: Capability, kind: CapabilityKind, match: MetadataMatch | undefined): boolean {
  if (cap.kind !== kind) return false;
  if (match === undefined) return true;
  for (const key of Object.keys(match)) if (cap.metadata[key] !== match[key]) return false;
  return true;
}

function duplicate(name: string): FermixError {
  return new FermixError({
    code: 'duplicate_name',
    message: `A capability named ${name} is already registered.`,
    hint: 'Give the tool another name, or unregister the existing one first (plugin and MCP tools are prefixed with their plugin or server name).',
    data: { name },
  });
}

/** True when the filter sets nothing but (at most) the trust: the invoke boundary's usual question. */
function trustOnly(filter: ListFilter): boolean {
  for (const key in filter) if (key !== 'trust' && filter[key as keyof ListFilter] !== undefined) return false;
  return true;
}

export function createRegistry(options: RegistryOptions = {}): CapabilityRegistry {
  const env: PolicyEnvironment = { computerUseReady: options.computerUseReady };
  const entries = new Map<string, Capability>();
  const listeners = new Set<RegistryListener>();
  let version = 0;
  // Sorted by name: list output does not depend on registration order, so a reconnecting MCP server
  // does not reshuffle the prompt (and its cache). Patched on every change (registry-index.ts).
  const index = createRegistryIndex(() => entries.values());

  const reportListenerError = options.onListenerError ?? ((error: unknown) => void Promise.reject(error));

  function changed(added: string[], removed: string[]): void {
    if (added.length === 0 && removed.length === 0) return;
    version += 1;
    index.apply(added.map((name) => entries.get(name)!), removed);
    const change: RegistryChange = { version, added, removed };
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }

  // Every invocation asks `rejection` with just the caller's trust: that compiled filter is kept per trust
  // (and computer-use readiness, which can change), instead of resolving the policy again on each call.
  const trustFilters = new Map<string, CompiledFilter>();
  function trustFilter(trust: ListFilter['trust']): CompiledFilter {
    const key = `${trust === 'operator' ? 'operator' : 'guest'}:${env.computerUseReady?.() === true}`;
    let compiled = trustFilters.get(key);
    if (compiled === undefined) trustFilters.set(key, (compiled = compileFilter({ trust }, env, true)));
    return compiled;
  }

  function select(filter: ListFilter | undefined, forcePolicy: boolean): Capability[] {
    return index.select(compileFilter(filter, env, forcePolicy));
  }

  function removeFamily(kind: CapabilityKind, match: MetadataMatch | undefined): string[] {
    const removed: string[] = [];
    for (const [name, cap] of entries) if (matchesFamily(cap, kind, match)) removed.push(name);
    for (const name of removed) entries.delete(name);
    return removed;
  }

  return {
    get version() {
      return version;
    },
    get size() {
      return entries.size;
    },
    register(cap) {
      validateCapability(cap);
      if (entries.has(cap.name)) throw duplicate(cap.name);
      entries.set(cap.name, freezeCapability(cap));
      changed([cap.name], []);
    },
    unregister(name) {
      if (!entries.delete(name)) return false;
      changed([], [name]);
      return true;
    },
    unregister_kind(kind, metadataMatch) {
      const removed = removeFamily(kind, metadataMatch);
      changed([], removed);
      return removed;
    },
    replace_kind(kind, metadataMatch, caps) {
      // Validate everything first: a refused swap must leave the old family in place.
      const incoming = new Set<string>();
      for (const cap of caps) {
        validateCapability(cap);
        if (!matchesFamily(cap, kind, metadataMatch)) {
          throw invalid(cap.name, `Capability ${cap.name} does not belong to the family being replaced (kind ${kind}${metadataMatch ? `, metadata ${JSON.stringify(metadataMatch)}` : ''}).`, 'Give every new capability the same kind and metadata values as the family, so the next swap removes it too.');
        }
        if (incoming.has(cap.name)) throw duplicate(cap.name);
        const existing = entries.get(cap.name);
        if (existing !== undefined && !matchesFamily(existing, kind, metadataMatch)) throw duplicate(cap.name);
        incoming.add(cap.name);
      }
      const removed = removeFamily(kind, metadataMatch);
      for (const cap of caps) entries.set(cap.name, freezeCapability(cap));
      changed([...incoming], removed);
      return { removed, added: [...incoming] };
    },
    find(name) {
      return entries.get(name);
    },
    list(filter) {
      return select(filter, false);
    },
    list_for(filter) {
      return select(filter, true);
    },
    rejection(cap, filter) {
      const compiled = trustOnly(filter) ? trustFilter(filter.trust) : compileFilter(filter, env, true);
      const step = rejectionStep(cap, compiled);
      return step === null ? null : { step, reason: explainRejection(step, cap, compiled) };
    },
    refresh() {
      // Intentionally empty (seed 000): the owning components re-register their families.
    },
    resolve_policy(trust, policy, policyClasses) {
      return resolvePolicy(trust, policy, policyClasses, env);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
