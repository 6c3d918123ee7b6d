/**
 * The `subagents` service (reference §2.9): runs a batch of one-shot workers for the turn that called
 * the tool. Each worker is a real agent-loop run (runTurn) with origin `subagent`, its parent's trust,
 * the parent's policy classes minus read_write and gui_control, and the `[agents.subagent]` role capped
 * by the parent's role. Workers are unattended, so an `ask` from the gate is a denial.
 *
 * Transcripts live in a throwaway in-memory database per batch: a worker is one-shot (no conversation
 * key, no sidebar entry, nothing to resume). What outlives it is its result, its live card events on
 * the parent's stream, and its model calls, which are also recorded on the parent turn so its tokens
 * and cost add up there. The parent's signal (/stop, shutdown) and its pause hold reach every worker.
 */
import { randomUUID } from 'node:crypto';
import type { CapabilityRegistry, Invoker, PolicyClass, Trust } from '../../core/capabilities/index.js';
import { subagentPolicy } from '../../core/capabilities/index.js';
import { mainAgentRole } from '../../core/capabilities/roles.js';
import { FermixError } from '../../core/errors.js';
import type { FermixConfig } from '../../config/schema.js';
import { openDatabase, type Database } from '../../store/database.js';
import { createTurnStore, type TurnStore } from '../../store/turns.js';
import type { EventSink } from '../loop/turn-events.js';
import type { ProviderHandle, RetryPolicy } from '../loop/model-call.js';
import type { ModelRoute } from '../providers/routing.js';
import { cutUtf8, shareOf } from './budget.js';
import { runWorker, type WorkerOutcome } from './worker.js';
import { prepareWorkerRequest } from './worker-request.js';
import { subagentRole } from './worker-role.js';
import type { ResultFormat } from './worker-prompt.js';

export interface SubagentBatchInput {
  tasks: { id: string; task: string; context?: string }[];
  shared_context?: string;
  max_concurrency: number;
  timeout_seconds: number;
  result_format: ResultFormat;
}

export interface SubagentCallContext {
  trust: Trust;
  conversationId?: string;
  signal: AbortSignal;
}

export interface WorkerResult {
  id: string;
  status: 'completed' | 'failed' | 'timed_out' | 'canceled';
  agent_name: string;
  session_id: string | null;
  duration_ms: number | null;
  iterations: number | null;
  output: string | null;
  error: string | null;
  truncated: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

export interface SubagentBatchResult {
  status: 'completed' | 'partial' | 'failed' | 'canceled';
  results: WorkerResult[];
  summary: { requested: number; completed: number; failed: number; timed_out: number; canceled: number };
  usage: { input_tokens: number; output_tokens: number; cost_usd: number | null };
}

export interface SubagentRunnerDeps {
  registry: CapabilityRegistry;
  invoker: Invoker;
  events: EventSink;
  config: () => FermixConfig;
  /** The executor services of the parent (the runner strips the channel ports from them). */
  services: () => Record<string, unknown>;
  /** The handles for subagent workers: [fermix_core.routing] subagent_* when set (main/agent/providers/routing.ts). */
  handles: (route?: ModelRoute) => ProviderHandle[];
  /** The turn running in a conversation (the caller of `subagents`), or null: then there is no source trust. */
  parentTurn: (conversationId: string) => string | null;
  parentStore: TurnStore;
  /** The parent conversation's pause hold point. */
  checkpoint: (conversationId: string, signal: AbortSignal) => Promise<void>;
  retry: RetryPolicy;
  now: () => Date;
}

/** An agent-visible name per worker, like Fermix's `agent_name`. */
const agentName = (id: string) => `subagent:${id}`;

export function createSubagentRunner(deps: SubagentRunnerDeps) {
  return {
    async runBatch(input: SubagentBatchInput, context: SubagentCallContext): Promise<SubagentBatchResult> {
      const conversationId = context.conversationId;
      const parentTurnId = conversationId ? deps.parentTurn(conversationId) : null;
      if (!conversationId || parentTurnId === null) {
        throw new FermixError({
          code: 'no_source_trust',
          message: 'subagents runs only inside a main-agent turn, and this call has none.',
          hint: 'Ask for the delegated work in the chat window or with `fermix ask`; jobs, MCP clients and `fermix capabilities call` cannot start subagents.',
        });
      }
      const config = deps.config();
      const parentRole = mainAgentRole(config);
      const role = subagentRole(config, parentRole);
      const classes: PolicyClass[] = subagentPolicy(deps.registry.resolve_policy(context.trust).allow);
      const routing = config.fermix_core.routing;
      const routed = routing.subagent_provider !== undefined || routing.subagent_model !== undefined || routing.subagent_effort !== undefined;
      const candidates = deps.handles(routed ? { provider: routing.subagent_provider, model: routing.subagent_model, effort: routing.subagent_effort, source: '[fermix_core.routing] subagent_provider' } : undefined);
      if (candidates.length === 0) {
        throw new FermixError({ code: 'no_provider', message: 'No model provider is configured for subagents.', hint: 'Add one under Settings → Models, or run `fermix providers add`.' });
      }
      const request = prepareWorkerRequest({ registry: deps.registry, trust: context.trust, classes, role, services: deps.services(), deferral: config.fermix_core.tools.tool_search.enabled, now: deps.now() });
      const batchId = randomUUID();
      const db: Database = openDatabase(':memory:', { ownsDaemonLock: false });
      const share = shareOf(input.tasks.length);
      const results: WorkerResult[] = new Array(input.tasks.length);
      const emit = (payload: Record<string, unknown>) => {
        try {
          deps.events.emit(conversationId, 'chat.subagent', { turn_id: parentTurnId, batch_id: batchId, ...payload });
        } catch {
          // A card event that fails its schema must not fail the delegated work.
        }
      };
      for (const task of input.tasks) emit(cardPayload(task.id, task.task, { status: 'queued' }));
      let next = 0;
      const pool = async () => {
        while (next < input.tasks.length) {
          const index = next;
          next += 1;
          const task = input.tasks[index];
          let outcome: WorkerOutcome;
          if (context.signal.aborted) {
            outcome = { status: 'canceled', durationMs: null, iterations: 0, text: '', error: 'the parent turn was stopped before this worker started', inputTokens: 0, outputTokens: 0, costUsd: null };
          } else {
            outcome = await runWorker({
              store: createTurnStore(db, deps.now), parentStore: deps.parentStore, parentTurnId, invoker: deps.invoker, classes, role,
              trust: context.trust, request, candidates, retry: deps.retry, timeoutMs: input.timeout_seconds * 1000, parentSignal: context.signal,
              checkpoint: (signal) => deps.checkpoint(conversationId, signal),
              task: { ...task, shared_context: input.shared_context, result_format: input.result_format },
              onProgress: (progress) => emit(cardPayload(task.id, task.task, { status: 'running', ...progress })),
            });
          }
          const cut = cutUtf8(outcome.text, share);
          results[index] = {
            id: task.id, status: outcome.status, agent_name: agentName(task.id), session_id: null,
            duration_ms: outcome.durationMs, iterations: outcome.iterations,
            output: outcome.text === '' ? null : cut.text, error: outcome.error, truncated: cut.truncated,
            input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens, cost_usd: outcome.costUsd,
          };
          emit(cardPayload(task.id, task.task, {
            status: outcome.status, iterations: outcome.iterations, duration_ms: outcome.durationMs, error: outcome.error,
            input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens, cost_usd: outcome.costUsd,
            preview: outcome.text === '' ? null : outcome.text.slice(0, 400),
          }));
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(input.max_concurrency, input.tasks.length) }, pool));
      } finally {
        db.close();
      }
      return summarize(results, context.signal.aborted);
    },
  };
}

function cardPayload(workerId: string, task: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { worker_id: workerId, task: task.slice(0, 200), iterations: 0, tool: null, duration_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: null, error: null, preview: null, ...fields };
}

function summarize(results: WorkerResult[], canceled: boolean): SubagentBatchResult {
  const count = (status: WorkerResult['status']) => results.filter((each) => each.status === status).length;
  const summary = { requested: results.length, completed: count('completed'), failed: count('failed'), timed_out: count('timed_out'), canceled: count('canceled') };
  const costs = results.map((each) => each.cost_usd).filter((cost): cost is number => cost !== null);
  const status = canceled ? 'canceled' : summary.completed === results.length ? 'completed' : summary.completed > 0 ? 'partial' : 'failed';
  return {
    status,
    results,
    summary,
    usage: {
      input_tokens: results.reduce((sum, each) => sum + each.input_tokens, 0),
      output_tokens: results.reduce((sum, each) => sum + each.output_tokens, 0),
      // Unknown is not free: null unless some worker's provider reported a price.
      cost_usd: costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0),
    },
  };
}

export type SubagentRunner = ReturnType<typeof createSubagentRunner>;
