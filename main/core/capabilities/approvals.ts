/**
 * Pending approvals: the loop parks on `request`, the UI lists the cards and answers once / always /
 * deny. An "always" answer stores exactly one of the rules shown on the card (`scopes`, computed BEFORE
 * the person agrees, so nobody approves a broader rule than they saw); the default (`always_covers`) is a
 * shell command's program and subcommand (`git status *`), else the exact canonical argument string
 * (glob-escaped, so it contains no wildcard). approval-scopes.ts lists the others. Ids are random, so a card shown before a restart never answers another call.
 */
import { FermixError } from '../errors.js';
import type { Capability, Origin, PolicyClass } from './capability.js';
import { redactSecrets, type ApprovalAnswer } from './audit-record.js';
import { onAbort } from './runtime.js';
import { offeredScopes, type ApprovalScope, type ScopeOptions } from './approval-scopes.js';
import { canonicalArgs, type CanonicalArgs, type Rule, type RuleStore } from './rules.js';
import { UNJAILED_WARNING } from './unjailed.js';

export const APPROVAL_ANSWERS: readonly ApprovalAnswer[] = ['once', 'always', 'deny'];

export interface ApprovalRequest {
  capability: Capability;
  args: Record<string, unknown>;
  /** Why it needs approval (the gate's reason). */
  reason: string;
  origin?: Origin;
  conversation_id?: string;
  /** Aborting removes the card and rejects with `cancelled` (turn stopped, window closed). */
  signal?: AbortSignal;
  /** The command would run without the OS jail (the gate's decision says so). */
  unjailed?: boolean;
}

export interface PendingApproval {
  id: string;
  capability: string;
  policy_class: PolicyClass;
  /** Arguments as shown on the card: everything except secret-shaped values. */
  args: unknown;
  argument: CanonicalArgs;
  reason: string;
  /** Exactly the rule a bare "always" answer stores (the first of `scopes`). */
  always_covers: Rule;
  /** Every scope "Always allow" offers, the default first, each with its rule in words (approval-scopes.ts). */
  scopes: ApprovalScope[];
  /** The command runs without the OS jail; `warning` is the line the card shows. */
  unjailed: boolean;
  warning: string | null;
  origin: Origin | null;
  conversation_id: string | null;
  requested_at: string;
}

export type ApprovalEvent =
  | { type: 'requested'; approval: PendingApproval }
  | { type: 'answered'; approval: PendingApproval; answer: ApprovalAnswer }
  | { type: 'cancelled'; approval: PendingApproval };

export interface ApprovalQueue {
  request(request: ApprovalRequest): Promise<ApprovalAnswer>;
  list(): PendingApproval[];
  /** `scope` picks one of the card's `scopes` for an "always" answer; absent = the default (the first). */
  answer(id: string, answer: ApprovalAnswer, scope?: string): void;
  subscribe(listener: (event: ApprovalEvent) => void): () => void;
}

export interface ApprovalQueueOptions {
  rules: RuleStore;
  /** The shell parser's "one plain command?" check (the daemon passes main/sandbox/command-shape.ts). */
  simpleCommand?: ScopeOptions['simpleCommand'];
  now?: () => number;
  newId?: () => string;
}

/** The default "always" rule: a command's program and subcommand, else the exact argument. */
export function alwaysRuleFor(cap: Capability, args: Record<string, unknown>, unjailed = false, simpleCommand?: ScopeOptions['simpleCommand']): Rule {
  return offeredScopes(cap, args, { unjailed, simpleCommand })[0].rule;
}

/** Random, never reused across restarts (a counter restarted at approval-1 after every restart). */
function randomApprovalId(): string {
  return `approval-${crypto.randomUUID()}`;
}

export function createApprovalQueue(options: ApprovalQueueOptions): ApprovalQueue {
  const now = options.now ?? Date.now;
  const newId = options.newId ?? randomApprovalId;
  const pending = new Map<string, { approval: PendingApproval; resolve: (a: ApprovalAnswer) => void; detach: () => void }>();
  const listeners = new Set<(event: ApprovalEvent) => void>();
  const emit = (event: ApprovalEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  return {
    request(request) {
      const cap = request.capability;
      const scopes = offeredScopes(cap, request.args, { unjailed: request.unjailed === true, simpleCommand: options.simpleCommand });
      const approval: PendingApproval = {
        id: newId(),
        capability: cap.name,
        policy_class: cap.policy_class,
        args: redactSecrets(request.args, Array.isArray(cap.metadata.secret_fields) ? cap.metadata.secret_fields : []),
        argument: canonicalArgs(cap, request.args),
        reason: request.reason,
        always_covers: scopes[0].rule,
        scopes,
        unjailed: request.unjailed === true,
        warning: request.unjailed === true ? UNJAILED_WARNING : null,
        origin: request.origin ?? null,
        conversation_id: request.conversation_id ?? null,
        requested_at: new Date(now()).toISOString(),
      };
      return new Promise<ApprovalAnswer>((resolve, reject) => {
        if (request.signal?.aborted) {
          reject(cancelled(cap.name));
          return;
        }
        const detach = onAbort(request.signal, () => {
          if (!pending.delete(approval.id)) return;
          reject(cancelled(cap.name));
          emit({ type: 'cancelled', approval });
        });
        pending.set(approval.id, { approval, resolve, detach });
        emit({ type: 'requested', approval });
      });
    },
    list() {
      return [...pending.values()].map((entry) => entry.approval);
    },
    answer(id, answer, scope) {
      if (!APPROVAL_ANSWERS.includes(answer)) {
        throw new FermixError({ code: 'invalid_answer', message: `Unknown approval answer ${JSON.stringify(answer)}.`, hint: 'Answer once, always or deny.' });
      }
      const entry = pending.get(id);
      if (entry === undefined) {
        throw new FermixError({
          code: 'unknown_approval',
          message: `No pending approval has id ${id}.`,
          hint: 'It was already answered or cancelled; list the pending approvals again.',
          data: { id },
        });
      }
      const chosen = scope === undefined ? entry.approval.scopes[0] : entry.approval.scopes.find((each) => each.id === scope);
      if (answer === 'always' && chosen === undefined) {
        throw new FermixError({
          code: 'invalid_answer',
          message: `This approval offers no scope ${JSON.stringify(scope)}.`,
          hint: `Answer always with one of: ${entry.approval.scopes.map((each) => each.id).join(', ')}.`,
          data: { id, scope },
        });
      }
      pending.delete(id);
      entry.detach();
      // Store before resolving: the resumed call, and every later one, must already see the rule.
      if (answer === 'always') options.rules.add({ ...chosen!.rule });
      entry.resolve(answer);
      emit({ type: 'answered', approval: entry.approval, answer });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

function cancelled(name: string): FermixError {
  return new FermixError({ code: 'cancelled', message: `The approval request for ${name} was cancelled.`, hint: 'Nothing ran. The turn that asked was stopped; ask again to get a new approval card.' });
}
