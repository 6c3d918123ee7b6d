/**
 * Trust → policy classes (seed 000 "Trust model", reference §2.1). Pure functions; the registry and the
 * invoker both call them so a list and a call can never disagree.
 */
import { FermixError } from '../errors.js';
import { POLICY_CLASSES, type Capability, type PolicyClass, type Trust } from './capability.js';

export const OPERATOR_DEFAULT_ALLOW: readonly PolicyClass[] = ['read_only', 'read_write', 'exec', 'network', 'external_api'];
export const GUEST_DEFAULT_ALLOW: readonly PolicyClass[] = ['read_only'];

/**
 * Read-only tools that return the owner's own data: a guest (an allowlisted non-owner sender, or a
 * plugin-shipped skill) must not read the owner's files, jobs or memory sources (reference §2.1).
 */
export const GUEST_OWNER_DATA_TOOLS: ReadonlySet<string> = new Set([
  'file_read', 'view_image', 'glob_search', 'content_search', 'git_read',
  'list_jobs', 'list_job_runs', 'get_job_run', 'send_attachment', 'memory_sources_list',
]);

/** "Guests get no skills, MCP, exec or network": exec/network go by class, these by kind. */
export const GUEST_DENIED_KINDS: ReadonlySet<string> = new Set(['mcp', 'skill']);

/** `policy: [...]` is shorthand for `{allow: [...], deny: []}`. */
export type PolicySpec = readonly PolicyClass[] | { allow?: readonly PolicyClass[]; deny?: readonly PolicyClass[] };

export interface PolicyEnvironment {
  /** gui_control joins the operator's classes only while computer use is enabled and its helper is installed. */
  computerUseReady?: () => boolean;
}

export interface ResolvedPolicy {
  /** The effective trust: a missing trust is `guest`, never more. */
  trust: Trust;
  allow: PolicyClass[];
  /** Every class not allowed (the complement), for `resolve_policy` callers and `inspect`. */
  deny: PolicyClass[];
  /** Guest-only removals on top of classes: owner-data tools and the mcp/skill kinds. */
  guest_restrictions: boolean;
  source: 'trust_default' | 'explicit';
}

export function defaultAllow(trust: Trust, env: PolicyEnvironment = {}): PolicyClass[] {
  if (trust !== 'operator') return [...GUEST_DEFAULT_ALLOW];
  return env.computerUseReady?.() === true ? [...OPERATOR_DEFAULT_ALLOW, 'gui_control'] : [...OPERATOR_DEFAULT_ALLOW];
}

function checkClasses(classes: readonly unknown[], where: string): PolicyClass[] {
  for (const value of classes) {
    if (!(POLICY_CLASSES as readonly unknown[]).includes(value)) {
      throw new FermixError({
        code: 'invalid_policy',
        message: `Unknown policy class ${JSON.stringify(value)} in ${where}.`,
        hint: `Use one of: ${POLICY_CLASSES.join(', ')}.`,
        data: { value, valid: [...POLICY_CLASSES] },
      });
    }
  }
  return classes as PolicyClass[];
}

/**
 * (trust, policy) → effective allow/deny. Decision: an explicit policy REPLACES the trust default but is
 * capped by it, so it can narrow and never widen. Fermix's "explicit policy overrides the default" is
 * used to narrow (jobs, subagents, skills); letting it widen would let a caller with no trust reach exec
 * by passing `policy: ['exec']`, which breaks "a missing trust never grants more than guest".
 * `policy_classes` is a second explicit list, intersected the same way.
 */
export function resolvePolicy(
  trust: Trust | null | undefined,
  policy?: PolicySpec | null,
  policyClasses?: readonly PolicyClass[] | null,
  env: PolicyEnvironment = {},
): ResolvedPolicy {
  const effectiveTrust: Trust = trust === 'operator' ? 'operator' : 'guest';
  const ceiling = new Set(defaultAllow(effectiveTrust, env));
  let allow = [...ceiling];
  let denied = new Set<PolicyClass>();
  if (policy != null) {
    const spec = Array.isArray(policy) ? { allow: policy as readonly PolicyClass[] } : (policy as { allow?: readonly PolicyClass[]; deny?: readonly PolicyClass[] });
    if (spec.allow !== undefined) {
      const explicit = new Set(checkClasses(spec.allow, 'policy.allow'));
      allow = allow.filter((c) => explicit.has(c));
    }
    denied = new Set(checkClasses(spec.deny ?? [], 'policy.deny'));
  }
  if (policyClasses != null) {
    const explicit = new Set(checkClasses(policyClasses, 'policy_classes'));
    allow = allow.filter((c) => explicit.has(c));
  }
  allow = allow.filter((c) => !denied.has(c));
  const allowSet = new Set(allow);
  // Keep POLICY_CLASSES order so two equal policies print (and cache) identically.
  const ordered = POLICY_CLASSES.filter((c) => allowSet.has(c));
  return {
    trust: effectiveTrust,
    allow: ordered,
    deny: POLICY_CLASSES.filter((c) => !allowSet.has(c)),
    guest_restrictions: effectiveTrust === 'guest',
    source: policy != null || policyClasses != null ? 'explicit' : 'trust_default',
  };
}

/** Delegated work can read, browse and call APIs, but never writes local state or touches the desktop. */
export function subagentPolicy(parentClasses: readonly PolicyClass[]): PolicyClass[] {
  return parentClasses.filter((c) => c !== 'read_write' && c !== 'gui_control');
}

/** Why a guest may not see a capability its class would allow, or null. */
export function guestRestriction(cap: Pick<Capability, 'name' | 'kind'>): string | null {
  if (GUEST_DENIED_KINDS.has(cap.kind)) return `guests get no ${cap.kind} capabilities`;
  if (GUEST_OWNER_DATA_TOOLS.has(cap.name)) return `\`${cap.name}\` returns the owner's own data, which guests may not read`;
  return null;
}
