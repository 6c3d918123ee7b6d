/**
 * A supervised sub-turn for skill_run: the agent loop's own runTurn (main/agent/loop/run-turn.ts) on a
 * throwaway conversation, with the skill's body as the system prompt and only the tools the runner
 * computed (skill ∩ caller). The invoker is wrapped so a call to anything outside that set is refused
 * at the invoke boundary (audited as a policy denial), not merely left unadvertised. The sub-turn runs
 * with origin `subagent` and is never interactive: nobody can answer an approval card inside it, so a
 * call that would ask is denied — a skill never widens what its caller may do.
 * The sub-conversation is deleted afterwards (the journal keeps the run); its words never enter
 * history search.
 */
import { randomUUID } from 'node:crypto';
import type { Capability, Invoker, Role, Trust } from '../core/capabilities/index.js';
import type { WireError } from '../core/errors.js';
import type { Database } from '../store/database.js';
import type { TurnStore } from '../store/turns.js';
import { toSdkTools } from '../agent/deferral.js';
import { runTurn } from '../agent/loop/run-turn.js';
import { createTurnEmitter, type EventSink } from '../agent/loop/turn-events.js';
import type { ProviderHandle, RetryPolicy } from '../agent/loop/model-call.js';
import type { ModelRoute } from '../agent/providers/routing.js';

export interface SubTurnRequest {
  system: string;
  message: string;
  trust: Trust;
  tools: readonly Capability[];
  maxIterations: number;
  signal: AbortSignal;
  /** Executor services for the sub-turn's calls (the caller's, plus the nested skill depth). */
  services: Record<string, unknown>;
  /** The skill's provider (a configured name or type), model and temperature: the sub-turn runs on exactly that. */
  route?: Omit<ModelRoute, 'source'> & { source: string; hint: string };
  title: string;
}

export interface SubTurnResult {
  status: string;
  text: string;
  error: WireError | null;
  iterations: number;
  provider: string | null;
  tool_calls: { name: string; status: string; error_code: string | null }[];
}

export interface SubTurnDeps {
  db: Database;
  store: TurnStore;
  invoker: Invoker;
  events: EventSink;
  /** The handles for a route (main/agent/providers/routing.ts); throws unknown_provider for a provider not configured. */
  candidates: (route?: SubTurnRequest['route']) => readonly ProviderHandle[];
  retry: RetryPolicy;
  role: () => Role | null;
}

/** The invoke boundary, narrowed to exactly `names`. */
function confinedInvoker(invoker: Invoker, names: readonly string[]): Invoker {
  return { execute: (name, args, context) => invoker.execute(name, args, { ...context, filter: { ...context.filter, allowed_tools: [...names] } }) };
}

export async function runSubTurn(deps: SubTurnDeps, request: SubTurnRequest): Promise<SubTurnResult> {
  const candidates = deps.candidates(request.route);
  if (candidates.length === 0) {
    return { status: 'failed', text: '', error: { code: 'no_provider', message: 'No model provider is configured, so the skill cannot run.', hint: 'Add one with `fermix providers add` (or Settings → Models).' }, iterations: 0, provider: null, tool_calls: [] };
  }
  const conversationId = `skill-run-${randomUUID()}`;
  deps.store.ensureConversation(conversationId, request.title);
  try {
    const turn = deps.store.createTurn(randomUUID(), conversationId, { trust: request.trust, origin: 'subagent', interactive: false, kind: 'subagent', message: request.message });
    deps.store.appendMessage(conversationId, turn.id, { role: 'user', text: request.message });
    deps.store.setStatus(turn.id, 'running');
    const emitter = createTurnEmitter(deps.events, conversationId, turn.id, () => {});
    const tools = toSdkTools(request.tools);
    const names = request.tools.map((cap) => cap.name);
    const byName = new Map(request.tools.map((cap) => [cap.name, cap]));
    const outcome = await runTurn({
      turn: deps.store.getTurn(turn.id),
      store: deps.store,
      invoker: confinedInvoker(deps.invoker, names),
      emitter,
      signal: request.signal,
      shuttingDown: () => false,
      candidates,
      prepare: () => ({
        system: request.system,
        tools,
        services: { ...request.services, registry: { find: (name: string) => byName.get(name), list: () => [...byName.values()] }, deferredTools: () => [] },
      }),
      role: deps.role(),
      retry: deps.retry,
      maxIterations: request.maxIterations,
      setCurrentCall: () => {},
      onHistoryRepair: () => {},
    });
    emitter.flush();
    const row = deps.store.finishTurn(turn.id, { status: outcome.status, stop_reason: outcome.stop_reason, error: outcome.error });
    const calls = deps.store.toolCalls(turn.id).map((call) => ({ name: call.name, status: call.status, error_code: call.error_code ?? null }));
    return { status: outcome.status, text: outcome.text, error: outcome.error, iterations: row.iterations, provider: row.provider, tool_calls: calls };
  } finally {
    // Messages, turns and tool calls cascade; the run's record is the journal entry.
    deps.db.run('DELETE FROM conversations WHERE id = ?', [conversationId]);
  }
}
