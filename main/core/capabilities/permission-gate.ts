/**
 * The permission gate (Voss), asked per call AFTER the trust filter admitted the capability.
 * One decision function for every path: chat, CLI, scheduled job, inbound MCP, subagent.
 *
 * Precedence, first that applies wins:
 *  1. role boundary (hard): a role cannot reach a group it does not list; no rule can widen a role;
 *  2. `read_only` mode (hard): every mutating call is denied, whatever the rules say;
 *  3. rules, LAST match wins (config rules and "always" answers, in the order the store returns them).
 *     An `ask` rule asks even in `auto` mode (someone wrote it on purpose); on a turn nobody attends,
 *     `ask` becomes deny, because parking a job on a card nobody sees would hang it;
 *  4. defaults: a network capability for a role without `net` → deny; not mutating → allow;
 *     `auto` mode → allow; attended turn → ask; unattended → deny, with the rule that would allow it.
 */
import type { Capability, Origin } from './capability.js';
import { isMutating, isNetwork } from './derive.js';
import { roleGrants, type Role } from './roles.js';
import { isScopedAllowFor, runsCommands, UNJAILED_WARNING } from './unjailed.js';
import { canonicalArgs, describeRule, patternMatches, permissionMatches, type CanonicalArgs, type Rule, type RuleAction, type RuleStore } from './rules.js';

export const GATE_MODES = ['ask', 'auto', 'read_only'] as const;
export type GateMode = (typeof GATE_MODES)[number];

export interface GateCall {
  capability: Capability;
  args: Record<string, unknown>;
  /** True when a person can answer an approval card for this turn right now. */
  interactive: boolean;
  origin?: Origin;
  role?: Role | null;
  /** Per-call override of the gate's mode (e.g. a session switched to auto). */
  mode?: GateMode;
}



export interface GateDecision {
  decision: RuleAction;
  /** Which rule or default decided, for people and the audit: `config: file_* → deny`, `default: …`. */
  rule: string;
  /** The stored rule that matched, or null when a built-in default or hard boundary decided. */
  matched_rule: Rule | null;
  reason: string;
  /** The argument string rules were matched against (shown on approval cards). */
  canonical: CanonicalArgs;
  /** True when the call would run commands without the OS jail. */
  unjailed: boolean;
}

export interface PermissionGate {
  readonly mode: GateMode;
  decide(call: GateCall): GateDecision;
}

export interface PermissionGateOptions {
  rules: RuleStore;
  mode?: GateMode;
  /** True when commands run without the OS jail on this machine; then auto mode and broad rules never approve them. */
  commandsUnjailed?: boolean;
}

/**
 * The config rule that would allow `name` on an unattended run. The persistent RuleStore (lead) owns the
 * config format; keep this text in step with it.
 */
export function allowRuleHint(name: string): string {
  return `add a rule to config.toml: [[permissions.rules]] permission = "${name}" action = "allow" (optionally with pattern = "<argument glob>")`;
}

/** A decision without its `canonical` (which belongs to one call's arguments). */
type DecisionTemplate = Omit<GateDecision, 'canonical'>;

/** A kept decision and everything it was decided from besides the rules snapshot and the capability object. */
interface KeptDecision {
  mode: GateMode;
  interactive: boolean;
  origin: string;
  policy_class: Capability['policy_class'];
  group: Capability['group'];
  is_mutating: Capability['is_mutating'];
  is_network: Capability['is_network'];
  template: DecisionTemplate;
}
const NOTHING_KEPT: readonly KeptDecision[] = [];
const MAX_KEPT_PER_CAPABILITY = 16;

/**
 * One call's arguments as rules see them, computed on first read: only a rule with a pattern (or a
 * reader of the decision's `canonical`) needs it, and it serializes the arguments, which for a large
 * MCP argument is most of the call. Classes rather than closures: a decision is made on every call.
 */
class CallArguments {
  #value: CanonicalArgs | undefined;
  read = false;
  constructor(private readonly cap: Capability, private readonly args: Record<string, unknown>) {}
  canonical(): CanonicalArgs {
    this.read = true;
    return (this.#value ??= canonicalArgs(this.cap, this.args));
  }
}

class Decision implements GateDecision {
  readonly decision: RuleAction;
  readonly rule: string;
  readonly matched_rule: Rule | null;
  readonly reason: string;
  readonly unjailed: boolean;
  readonly #args: CallArguments;
  constructor(template: DecisionTemplate, args: CallArguments) {
    this.decision = template.decision;
    this.rule = template.rule;
    this.matched_rule = template.matched_rule;
    this.reason = template.reason;
    this.unjailed = template.unjailed;
    this.#args = args;
  }
  get canonical(): CanonicalArgs {
    return this.#args.canonical();
  }
}

export function createPermissionGate(options: PermissionGateOptions): PermissionGate {
  const gateMode: GateMode = options.mode ?? 'ask';
  // Most calls are decided without their arguments (a rule without a pattern, or a default), and then
  // the same rules, capability, mode, attendance and origin always give the same decision: it is kept
  // per rules snapshot (RuleStore.load returns one array until the rules change) and per capability
  // object (re-registering makes a new one). A decision that read the arguments is never kept, nor one
  // for a caller with a role. Deciding again cost ~1.7 µs of every MCP call (bench/suites/mcp.ts).
  let cachedRules: readonly Rule[] | undefined;
  let decided = new WeakMap<Capability, KeptDecision[]>();

  return {
    mode: gateMode,
    decide(call) {
      const cap = call.capability;
      const mode = call.mode ?? gateMode;
      const rules = options.rules.load();
      if (rules !== cachedRules) {
        cachedRules = rules;
        decided = new WeakMap();
      }
      const args = new CallArguments(cap, call.args);
      const keep = call.role == null;
      const origin = call.origin ?? '';
      if (keep) {
        // A short list per capability, compared field by field: no key string to build and hash per call.
        for (const kept of decided.get(cap) ?? NOTHING_KEPT) {
          if (kept.mode === mode && kept.interactive === call.interactive && kept.origin === origin && kept.policy_class === cap.policy_class
            && kept.group === cap.group && kept.is_mutating === cap.is_mutating && kept.is_network === cap.is_network) return new Decision(kept.template, args);
        }
      }
      const template = decideFresh(call, cap, mode, rules, args);
      if (keep && !args.read) {
        let forCap = decided.get(cap);
        if (forCap === undefined) decided.set(cap, (forCap = []));
        // Bounded: a capability is called with a handful of modes and origins; past that, start over.
        if (forCap.length >= MAX_KEPT_PER_CAPABILITY) forCap.length = 0;
        forCap.push({ mode, interactive: call.interactive, origin, policy_class: cap.policy_class, group: cap.group, is_mutating: cap.is_mutating, is_network: cap.is_network, template });
      }
      return new Decision(template, args);
    },
  };

  function decideFresh(call: GateCall, cap: Capability, mode: GateMode, rules: readonly Rule[], args: CallArguments): DecisionTemplate {
    const mutating = isMutating(cap);
    const unjailed = options.commandsUnjailed === true && runsCommands(cap);
    const made = (decision: RuleAction, rule: string, reason: string, matched: Rule | null = null): DecisionTemplate => ({ decision, rule, matched_rule: matched, reason, unjailed });
    let skippedBroad: string | undefined;

    if (call.role != null && !roleGrants(call.role, cap.group)) {
      return made('deny', `role: ${call.role.name}`, `Role ${call.role.name} does not grant the ${cap.group} group that ${cap.name} belongs to (it grants: ${call.role.tools.join(', ') || 'nothing'}).`);
    }
    if (mode === 'read_only' && mutating) {
      return made('deny', 'mode: read_only', `${cap.name} is mutating (policy class ${cap.policy_class}) and the session is in read_only mode.`);
    }

    for (let i = rules.length - 1; i >= 0; i -= 1) {
      const rule = rules[i];
      if (!permissionMatches(rule.permission, cap) || (rule.pattern !== undefined && !patternMatches(rule.pattern, args.canonical(), rule.action))) continue;
      const text = describeRule(rule);
      // Without the jail only a rule scoped to one program (and subcommand) approves: `*` would
      // hand the model the account's full rights.
      if (unjailed && rule.action === 'allow' && !isScopedAllowFor(rule, cap)) {
        skippedBroad ??= text;
        continue;
      }
      if (rule.action === 'ask' && !call.interactive) {
        return made('deny', text, `A rule says to ask before ${cap.name}, and nobody can answer on this ${call.origin ?? 'unattended'} run. To run it unattended, ${allowRuleHint(cap.name)}.`, rule);
      }
      return made(rule.action, text, `${cap.name} matched the rule ${text}.`, rule);
    }

    if (call.role != null && isNetwork(cap) && !roleGrants(call.role, 'net')) {
      return made('deny', 'default: network without net', `${cap.name} uses the network and role ${call.role.name} does not grant the net group. Add net to the role's tools, or ${allowRuleHint(cap.name)}.`);
    }
    if (!mutating) return made('allow', 'default: not mutating → allow', `${cap.name} does not change anything (policy class ${cap.policy_class}).`);
    if (unjailed) {
      const why = `${UNJAILED_WARNING}${mode === 'auto' ? ' Auto mode does not approve unjailed commands.' : ''}${skippedBroad ? ` The broad rule ${skippedBroad} does not apply to unjailed commands; only a scoped rule such as "git status *" does.` : ''}`;
      if (call.interactive) return made('ask', 'default: unjailed command → ask', why);
      return made('deny', 'default: unjailed command, unattended → deny', `${why} This ${call.origin ?? 'unattended'} run has no one to approve it; add a scoped rule, e.g. [[permissions.rules]] permission = "${cap.name}" pattern = "git status *" action = "allow".`);
    }
    if (mode === 'auto') return made('allow', 'default: auto mode → allow', `${cap.name} is mutating and the session is in auto mode.`);
    if (call.interactive) {
      return made('ask', 'default: mutating → ask', `${cap.name} can change things (policy class ${cap.policy_class}), so it needs your approval.`);
    }
    return made(
      'deny',
      'default: mutating, unattended → deny',
      `${cap.name} can change things (policy class ${cap.policy_class}) and this ${call.origin ?? 'unattended'} run has no one to approve it. To allow it, ${allowRuleHint(cap.name)}.`,
    );
  }
}
