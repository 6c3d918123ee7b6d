/**
 * The list filter (seed 000 "Filter parameters"), compiled once per call into Sets so `list_for` is a
 * single pass over the registry. The same step function answers "is it visible?" for lists and "why
 * not?" for the invoker, so a list and a call can never disagree.
 *
 * Steps, in this exact order: kind → policy → allowlist → name exclusion → category exclusion → hidden.
 * The result of an AND of predicates does not depend on order; the order decides which step is NAMED
 * when a capability is refused, and it is the order Fermix documents.
 */
import type { Capability, CapabilityKind, PolicyClass, Trust } from './capability.js';
import { guestRestriction, resolvePolicy, type PolicyEnvironment, type PolicySpec, type ResolvedPolicy } from './trust.js';

export interface ListFilter {
  /** undefined/null = no narrowing by name; [] = nothing. */
  allowed_tools?: readonly string[] | null;
  policy?: PolicySpec | null;
  policy_classes?: readonly PolicyClass[] | null;
  /** Missing or null = guest, never more (when the policy step applies). */
  trust?: Trust | null;
  kind?: CapabilityKind | 'all' | null;
  excluded_categories?: readonly string[] | null;
  excluded_names?: readonly string[] | null;
  /** Default: false when the policy step applies (`list_for`), true on the primitive `list` path. */
  include_hidden?: boolean;
}

export const FILTER_STEPS = ['kind', 'policy', 'allowlist', 'excluded_name', 'excluded_category', 'hidden'] as const;
export type FilterStep = (typeof FILTER_STEPS)[number];

export interface CompiledFilter {
  kind: CapabilityKind | null;
  /** null = the policy step is skipped (the primitive `list` path). */
  policy: ResolvedPolicy | null;
  allowedClasses: ReadonlySet<PolicyClass> | null;
  allowed: ReadonlySet<string> | null;
  excludedNames: ReadonlySet<string> | null;
  excludedCategories: ReadonlySet<string> | null;
  includeHidden: boolean;
}

/**
 * Does this filter ask for the policy step? Decided by the PRESENCE of a key, not its value:
 * `list_for({trust: ctx.trust})` with an unset `ctx.trust` must mean guest, not "bypass the policy".
 */
export function wantsPolicy(filter: ListFilter | undefined): boolean {
  if (filter === undefined) return false;
  return 'trust' in filter || 'policy' in filter || 'policy_classes' in filter;
}

export function compileFilter(filter: ListFilter | undefined, env: PolicyEnvironment, forcePolicy = false): CompiledFilter {
  const f = filter ?? {};
  const policy = forcePolicy || wantsPolicy(f) ? resolvePolicy(f.trust, f.policy, f.policy_classes, env) : null;
  const toSet = (list: readonly string[] | null | undefined) => (list == null ? null : new Set(list));
  return {
    kind: f.kind == null || f.kind === 'all' ? null : f.kind,
    policy,
    allowedClasses: policy === null ? null : new Set(policy.allow),
    allowed: toSet(f.allowed_tools),
    excludedNames: toSet(f.excluded_names),
    excludedCategories: toSet(f.excluded_categories),
    // The primitive path (no policy keys) is for inspection and shows hidden entries unless told not
    // to; hidden_from_agent only concerns what a caller (the model) is offered.
    includeHidden: f.include_hidden ?? policy === null,
  };
}

/** The first step that refuses `cap`, or null when it is visible. Hot path: no allocation. */
export function rejectionStep(cap: Capability, f: CompiledFilter): FilterStep | null {
  if (f.kind !== null && cap.kind !== f.kind) return 'kind';
  if (f.allowedClasses !== null) {
    if (!f.allowedClasses.has(cap.policy_class)) return 'policy';
    if (f.policy!.guest_restrictions && guestRestriction(cap) !== null) return 'policy';
  }
  if (f.allowed !== null && !f.allowed.has(cap.name)) return 'allowlist';
  if (f.excludedNames !== null && f.excludedNames.has(cap.name)) return 'excluded_name';
  if (f.excludedCategories !== null && f.excludedCategories.has(cap.metadata.category)) return 'excluded_category';
  if (!f.includeHidden && cap.hidden_from_agent) return 'hidden';
  return null;
}

/** One sentence for people and models: which step refused the capability, and why. */
export function explainRejection(step: FilterStep, cap: Capability, f: CompiledFilter): string {
  switch (step) {
    case 'kind':
      return `\`${cap.name}\` is a ${cap.kind} capability and this caller only sees ${f.kind} capabilities.`;
    case 'policy': {
      const p = f.policy!;
      if (!f.allowedClasses!.has(cap.policy_class)) {
        const allowed = p.allow.length > 0 ? p.allow.join(', ') : 'none';
        return `\`${cap.name}\` has policy class ${cap.policy_class}, which ${p.trust} trust with this policy does not allow (allowed: ${allowed}).`;
      }
      return `\`${cap.name}\` is not available to guests: ${guestRestriction(cap)}.`;
    }
    case 'allowlist':
      return `\`${cap.name}\` is not in this caller's allowed_tools list.`;
    case 'excluded_name':
      return `\`${cap.name}\` is excluded by name for this caller.`;
    case 'excluded_category':
      return `\`${cap.name}\` is in category ${cap.metadata.category}, which is excluded for this caller.`;
    case 'hidden':
      return `\`${cap.name}\` is hidden from the agent (hidden_from_agent = true).`;
  }
}
