/**
 * THE one invoke boundary (reference §2.1 `Capability.execute/3`): the agent loop, voice, the CLI,
 * scheduled jobs, subagents and inbound MCP all call `execute`. In order:
 *   unwrap tool_call → find → trust/policy filter → validate arguments → executor present? → gate
 *   (→ approval) → run with timeout → truncate → audit.
 * Every call writes exactly one audit record, refusals included, and refusals are written before
 * anything runs. "No executor" is checked before the gate so nobody is asked to approve a call that
 * cannot run.
 */
import { FermixError, isFermixError } from '../errors.js';
import type { Capability, ExecutionContext, Origin, ToolResult, Trust } from './capability.js';
import { buildAuditRecord, prepareAudit, redactText, type ApprovalAnswer, type AuditInput, type AuditOutcome, type AuditSink, type PreparedAudit } from './audit-record.js';
import type { ApprovalQueue } from './approvals.js';
import { DEFAULT_TIMEOUT_MS } from './derive.js';
import type { ListFilter } from './filter.js';
import type { GateMode, PermissionGate, GateDecision } from './permission-gate.js';
import type { CapabilityRegistry } from './registry.js';
import type { Role } from './roles.js';
import { Cancellation, onAbort, startTimer, stopTimer, type TimerHandle } from './runtime.js';
import { truncateResult } from './truncate.js';
import { createArgsValidator, type ArgsValidator } from './validate-args.js';

/** Origins where nobody can answer an approval card; they can never claim to be interactive. */
export const UNATTENDED_ORIGINS: ReadonlySet<Origin> = new Set<Origin>(['job', 'subagent', 'mcp-inbound']);

export interface InvokeContext {
  /** Missing = guest, never more. */
  trust?: Trust | null;
  origin: Origin;
  conversationId?: string;
  turnId?: string;
  cwd?: string;
  services?: Record<string, unknown>;
  /** The turn's signal: aborting it cancels a parked approval and the running executor. */
  signal?: AbortSignal;
  /** False when the attended surface cannot show approval cards (e.g. a piped `fermix ask`). */
  interactive?: boolean;
  /** The caller's list options: the call is refused exactly when `list_for` would not show the tool. */
  filter?: Omit<ListFilter, 'trust'>;
  role?: Role | null;
  mode?: GateMode;
}

export interface InvokerOptions {
  registry: CapabilityRegistry;
  gate: PermissionGate;
  /** Without a queue, an `ask` decision is a denial. */
  approvals?: ApprovalQueue;
  audit: AuditSink;
  now?: () => number;
  /** Default 100,000 characters of tool output. */
  maxOutputChars?: number;
  /** An audit sink failure must not turn a completed call into an error. Default: unhandled rejection (loud). */
  onAuditError?: (error: unknown) => void;
}

export interface Invoker {
  execute(name: string, args: unknown, context: InvokeContext): Promise<ToolResult>;
}

const MAX_UNWRAP_DEPTH = 4;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `tool_call {name, arguments}` → the real call, so policy, the gate and the audit see the real tool
 * (reference §2.2). A malformed bridge call is left alone: tool_call's own executor answers it with
 * corrective text. Arguments sent as a JSON string (a common model slip) are accepted when they parse
 * to an object.
 */
export function unwrapToolCall(name: string, args: unknown): { name: string; args: unknown; unwrapped: boolean } {
  if (name !== 'tool_call') return { name, args, unwrapped: false };
  let current = { name, args };
  for (let depth = 0; depth < MAX_UNWRAP_DEPTH && current.name === 'tool_call' && isRecord(current.args); depth += 1) {
    const inner = current.args;
    let innerArgs = inner.arguments;
    if (typeof innerArgs === 'string') {
      try {
        innerArgs = JSON.parse(innerArgs);
      } catch {
        break;
      }
    }
    if (typeof inner.name !== 'string' || inner.name === '' || !isRecord(innerArgs)) break;
    current = { name: inner.name, args: innerArgs };
  }
  return { ...current, unwrapped: current.name !== name };
}

function unknownCapability(name: string): FermixError {
  return new FermixError({
    code: 'unknown_capability',
    message: `No capability is named ${name}.`,
    hint: 'Run `fermix capabilities list` to see the registered names (the model can use tool_search).',
    data: { name },
  });
}

function notImplemented(cap: Capability): FermixError {
  const planned = typeof cap.metadata.not_implemented === 'string' ? cap.metadata.not_implemented : null;
  return new FermixError({
    code: 'not_implemented',
    message: `${cap.name} is registered but this build of Fermix desktop cannot run it yet${planned ? ` (${planned})` : ''}.`,
    hint: cap.metadata.requires_setup ?? (planned ? `It arrives with ${planned}.` : 'Use another tool for now; `fermix capabilities list` shows what can run.'),
    data: { name: cap.name, planned },
  });
}

function permissionDenied(cap: Capability, decision: GateDecision): FermixError {
  return new FermixError({
    code: 'permission_denied',
    message: `${cap.name} was not allowed: ${decision.reason}`,
    hint: `Decided by ${decision.rule}. Change the permission rules in config.toml or the session mode to allow it.`,
    data: { name: cap.name, rule: decision.rule, decision: decision.decision },
  });
}

/** Non-Fermix errors become `tool_failed`; the message keeps one redacted line so the model can react. */
function toToolError(cap: Capability, error: unknown): FermixError {
  if (isFermixError(error)) return error;
  const raw = error instanceof Error ? error.message : String(error);
  const line = redactText(raw.split('\n')[0] ?? '').slice(0, 500);
  return new FermixError({
    code: 'tool_failed',
    message: `${cap.name} failed: ${line || 'no error message'}.`,
    hint: 'Check the arguments and try again; `fermix logs -n 50` shows the details.',
    data: { name: cap.name },
    cause: error,
  });
}

/** The run's timer fires this, with the run: no closure per call. */
function timeOut(run: ExecutorRun): void {
  run.timeOut();
}

/**
 * One executor run: its timeout, the caller's signal and its own cancellation. A class rather than
 * closures: it is created on every call, and each closure is another allocation (and, under tsx, a
 * defineProperty for its name) on the invoke boundary's path (bench/suites/mcp.ts, decision 0020).
 */
class ExecutorRun {
  readonly cancellation = new Cancellation();
  private settled = false;
  private timer: TimerHandle | undefined;
  private detach: (() => void) | undefined;
  private resolve!: (result: ToolResult) => void;
  private reject!: (error: unknown) => void;

  constructor(private readonly cap: Capability, private readonly timeoutMs: number) {}

  start(args: Record<string, unknown>, context: InvokeContext, trust: Trust): Promise<ToolResult> {
    const done = new Promise<ToolResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    const cap = this.cap;
    // No listener (and no closure) without a signal: most calls have none.
    if (context.signal !== undefined) this.detach = onAbort(context.signal, () => this.stop(new FermixError({ code: 'cancelled', message: `${cap.name} was cancelled.`, hint: 'The turn that called it was stopped; run it again if it is still needed.', data: { name: cap.name } })));
    if (this.settled) return done;
    const cancellation = this.cancellation;
    const execution: ExecutionContext = {
      trust,
      origin: context.origin,
      conversationId: context.conversationId,
      turnId: context.turnId,
      cwd: context.cwd,
      interactive: context.interactive !== false && !UNATTENDED_ORIGINS.has(context.origin),
      // Made on first read: most executors never look at it, and creating one costs more than the rest of this object.
      get signal() {
        return cancellation.signal;
      },
      cancellation,
      services: context.services ?? {},
    };
    let pending: Promise<ToolResult>;
    try {
      pending = Promise.resolve(cap.executor!(args, execution));
    } catch (error) {
      pending = Promise.reject(error);
    }
    // Started once the executor has sent its work on its way (no timer can fire while it runs synchronously).
    if (!this.settled) this.timer = startTimer(this.timeoutMs, timeOut, this);
    pending.then((result) => this.finish(result, null), (error: unknown) => this.finish(null, error));
    return done;
  }

  timeOut(): void {
    this.stop(new FermixError({
      code: 'timeout',
      message: `${this.cap.name} did not finish within ${this.timeoutMs} ms and was stopped.`,
      hint: 'Try a smaller request (a narrower path, pattern or range).',
      data: { name: this.cap.name, timeout_ms: this.timeoutMs },
    }));
  }

  private stop(error: FermixError): void {
    if (this.settled) return;
    // Abort first so the executor can stop its work (kill a process group, close a socket).
    this.cancellation.abort(error);
    this.finish(null, error);
  }

  private finish(result: ToolResult | null, error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer !== undefined) stopTimer(this.timer);
    this.detach?.();
    if (result === null) this.reject(error);
    else this.resolve(result);
  }
}

/** What every audit record of one call shares. */
interface CallFacts {
  started: number;
  context: InvokeContext;
  trust: Trust;
  name: string;
  cap: Capability | undefined;
  args: unknown;
}

export function createInvoker(options: InvokerOptions): Invoker {
  const now = options.now ?? Date.now;
  const validator: ArgsValidator = createArgsValidator();
  let validatorLoaded = false;
  const maxChars = options.maxOutputChars ?? 100_000;
  const reportAuditError = options.onAuditError ?? ((error: unknown) => void Promise.reject(error));

  function record(call: CallFacts, fields: Partial<AuditInput> & Pick<AuditInput, 'decision'>) {
    return buildAuditRecord({
      time: call.started,
      conversation_id: call.context.conversationId,
      trust: call.trust,
      origin: call.context.origin,
      name: call.name,
      capability: call.cap,
      args: isRecord(call.args) ? call.args : { arguments: call.args },
      duration_ms: now() - call.started,
      ...fields,
    });
  }

  function audit(call: CallFacts, fields: Partial<AuditInput> & Pick<AuditInput, 'decision'>): void {
    try {
      options.audit.write(record(call, fields));
    } catch (error) {
      reportAuditError(error);
    }
  }

  function complete(prepared: PreparedAudit | null, outcome: AuditOutcome): void {
    try {
      prepared?.write(outcome);
    } catch (error) {
      reportAuditError(error);
    }
  }

  return {
    async execute(requestedName, requestedArgs, context) {
      const { name, args } = unwrapToolCall(requestedName, requestedArgs);
      const started = now();
      const trust: Trust = context.trust === 'operator' ? 'operator' : 'guest';
      const cap = options.registry.find(name);
      const call: CallFacts = { started, context, trust, name, cap, args };

      if (cap === undefined) {
        audit(call, { decision: 'rejected', error_code: 'unknown_capability' });
        throw unknownCapability(name);
      }
      const rejection = options.registry.rejection(cap, context.filter === undefined ? { trust } : { ...context.filter, trust });
      if (rejection !== null) {
        audit(call, { decision: 'deny', rule: `filter: ${rejection.step}`, error_code: 'policy_denied' });
        throw new FermixError({
          code: 'policy_denied',
          message: rejection.reason,
          hint: rejection.step === 'policy' && trust === 'guest'
            ? 'Only the owner (operator trust) can run it: ask them, or use a tool this conversation offers.'
            : 'Use one of the tools offered in this conversation; the owner can widen its policy or tool list in config.toml.',
          data: { name, step: rejection.step, trust },
        });
      }
      try {
        // Once ajv is loaded, no await: each await is another trip through the microtask queue per call.
        if (!validatorLoaded) {
          await validator.ready();
          validatorLoaded = true;
        }
        validator.validate(cap, args);
      } catch (error) {
        audit(call, { decision: 'rejected', error_code: isFermixError(error) ? error.code : 'invalid_arguments' });
        throw error;
      }
      if (typeof cap.executor !== 'function') {
        audit(call, { decision: 'rejected', error_code: 'not_implemented' });
        throw notImplemented(cap);
      }

      const interactive = !UNATTENDED_ORIGINS.has(context.origin) && context.interactive !== false;
      const decision = options.gate.decide({ capability: cap, args, interactive, origin: context.origin, role: context.role, mode: context.mode });
      let approval: ApprovalAnswer | null = null;
      if (decision.decision === 'deny') {
        audit(call, { decision: 'deny', rule: decision.rule, error_code: 'permission_denied' });
        throw permissionDenied(cap, decision);
      }
      if (decision.decision === 'ask') {
        if (!interactive || options.approvals === undefined) {
          const unanswerable = { ...decision, decision: 'deny' as const, reason: `${decision.reason} Nobody can answer an approval request on this path.` };
          audit(call, { decision: 'deny', rule: decision.rule, error_code: 'permission_denied' });
          throw permissionDenied(cap, unanswerable);
        }
        try {
          approval = await options.approvals.request({ capability: cap, args, reason: decision.reason, origin: context.origin, conversation_id: context.conversationId, signal: context.signal, unjailed: decision.unjailed });
        } catch (error) {
          audit(call, { decision: 'deny', rule: decision.rule, error_code: isFermixError(error) ? error.code : 'cancelled' });
          throw error;
        }
        if (approval === 'deny') {
          audit(call, { decision: 'deny', rule: decision.rule, approval, error_code: 'permission_denied' });
          throw permissionDenied(cap, { ...decision, decision: 'deny', reason: 'the person declined the approval request.' });
        }
      }

      const runStarted = now();
      // The executor gets its own copy: it cannot alter the audited arguments or the loop's history. One
      // that only serializes them (an MCP call) gets them as they are: the copy cost ~1 µs of every call.
      const ownArgs = cap.passes_args_through === true ? (args as Record<string, unknown>) : (JSON.parse(JSON.stringify(args)) as Record<string, unknown>);
      const timeoutMs = typeof cap.timeout_ms === 'number' && cap.timeout_ms > 0 ? cap.timeout_ms : DEFAULT_TIMEOUT_MS;
      const running = new ExecutorRun(cap, timeoutMs).start(ownArgs, context, trust);
      // The executor has started: a local MCP call's request is already on its way to the server. The
      // record's outcome-independent part (redacted arguments, the row, most of its journal line) is built
      // now, while the server works (free when a core is idle for it), so only the outcome is left once the
      // call returns. The record is still written (journaled) before the result is returned.
      let prepared: PreparedAudit | null = null;
      try {
        prepared = prepareAudit(options.audit, record(call, { decision: 'allow', rule: decision.rule, approval }));
      } catch (error) {
        reportAuditError(error);
      }
      let result: ToolResult;
      try {
        result = await running;
        if (!isRecord(result) || typeof result.text !== 'string') throw new Error('the tool returned a malformed result (no text)');
      } catch (error) {
        const mapped = toToolError(cap, error);
        complete(prepared, { duration_ms: now() - runStarted, error_code: mapped.code });
        throw mapped;
      }
      const truncated = truncateResult(cap, result, maxChars);
      complete(prepared, { duration_ms: now() - runStarted, result_bytes: truncated.bytes, truncated: truncated.truncated, notes: result.audit ?? null });
      return truncated.result;
    },
  };
}
