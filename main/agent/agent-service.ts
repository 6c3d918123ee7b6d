/**
 * The agent service: queues turns (FIFO per conversation), runs them through the loop, ties approval
 * requests to the turn that is waiting on them (parking, persisted), resumes parked turns at start-up,
 * and stops turns. The composition root creates it with the registry, the invoker, the approval
 * queue, the database and the event bus; it never sees a tool.
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalQueue, CapabilityRegistry, Invoker } from '../core/capabilities/index.js';
import type { FermixConfig } from '../config/schema.js';
import { FermixError, isFermixError, type WireError } from '../core/errors.js';
import type { Database } from '../store/database.js';
import { FINISHED_STATUSES, createTurnStore, type TurnOptions, type TurnRow, type TurnStore } from '../store/turns.js';
import { DEFAULT_RETRY, type RetryPolicy } from './loop/model-call.js';
import { ITERATION_CAPS, outcomeError, runTurn, type TurnOutcome } from './loop/run-turn.js';
import { createTurnEmitter, type EventSink, type TurnEmitter } from './loop/turn-events.js';
import { createProviderService } from './providers/provider-service.js';
import { systemSecrets, type SecretReader } from './providers/secrets.js';
import { mainAgentRole, type Role } from '../core/capabilities/roles.js';
import { createRequestBuilder, type RequestBuilderOptions } from './request-builder.js';
import { runSubTurn, type SubTurnRequest, type SubTurnResult } from '../skills/sub-turn.js';
import { loadAiSdk } from './ai-runtime.js';
import type { PluginStatus, SkillSummary } from './runtime-prompt.js';
import { createTurnHold, type HoldState, type TurnHold } from './turn-hold.js';
import { createTurnQueue } from './turn-queue.js';
import { checkSendAttachments } from './send-attachments.js';
import { forkBeforeTurn } from './fork-conversation.js';
import { createAttachmentStore, toRef } from '../store/attachments.js';
import { createCompactionStore, type CompactionRow } from '../store/compactions.js';
import { MAX_RECOMPRESSIONS, createCompactor, overheadTokens } from './compaction/compactor.js';
import { wantsModelTitle, writeModelTitle } from './conversation-title.js';
import { ROUTING_SETUP_HINT, routedHandles } from './providers/routing.js';
import type { ProviderHandle } from './loop/model-call.js';
import { isContextOverflow } from './providers/provider-errors.js';
import { createSubagentRunner } from './subagents/runner.js';

export interface AgentLogger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface AgentServiceDeps {
  db: Database;
  registry: CapabilityRegistry;
  /** THE invoke boundary, created with the same `approvals` queue passed here. */
  invoker: Invoker;
  approvals: ApprovalQueue;
  events: EventSink;
  /** Read at every turn (createConfigReader), so provider edits apply without a restart. */
  config: () => FermixConfig;
  /** Node services for executors (sandbox, configFile, …), merged into every call's context. */
  services?: () => Record<string, unknown>;
  /** Plugin readiness for the `## Plugins` section; [] until the plugin supervisor exists. */
  pluginStatus?: () => PluginStatus[];
  /** Skill catalog for the prompt (per caller trust); [] until skills exist. */
  skillCatalog?: (trust: TurnOptions['trust']) => SkillSummary[];
  /** The fenced memory block for a turn's prompt (main/memory/prompt.ts). */
  memoryPrompt?: RequestBuilderOptions['memoryPrompt'];
  secrets?: SecretReader;
  logger?: AgentLogger;
  now?: () => Date;
  fetch?: typeof fetch;
  ollamaOrigin?: string;
  retry?: Partial<RetryPolicy>;
  maxIterations?: number;
  /** The Fermix home: user attachments are read from its attachments/ folder. Absent: messages carry no files. */
  fermixHome?: string;
}

export interface SendInput {
  message: string;
  /** Uploads (attachments.upload) in this conversation that go with the message; at most 10. */
  attachment_ids?: string[];
  conversation_id?: string;
  /** Creates the conversation with this id when it does not exist (`fermix ask --session NAME`). */
  create_if_missing?: boolean;
  title?: string;
  cwd?: string;
  trust?: TurnOptions['trust'];
  origin?: TurnOptions['origin'];
  interactive?: boolean;
  kind?: TurnOptions['kind'];
  /** Job runs: the role stamped on the job and its allowed_tools (main/jobs/runner.ts). */
  role?: TurnOptions['role'];
  allowed_tools?: string[];
}

export interface TurnSummary {
  turn_id: string;
  conversation_id: string;
  status: TurnRow['status'];
  text: string;
  stop_reason: string | null;
  error: WireError | null;
  provider: string | null;
  model: string | null;
  iterations: number;
  usage: { input_tokens: number; output_tokens: number };
  cost_usd: number | null;
  /** Pause state of an unfinished turn's conversation (turn-hold.ts); null once finished. */
  hold: HoldState | null;
}

export interface HoldResult {
  /** The turn the pause applies to first (the running one, else the next queued); null when nothing runs. */
  turn_id: string | null;
  state: HoldState;
  changed: boolean;
}

interface ActiveTurn {
  turnId: string;
  controller: AbortController;
  emitter?: TurnEmitter;
  currentCall: string | null;
  approvalId: string | null;
  /** When the current call's approval was asked for, and how long the call has waited on people so far. */
  parkedAt: number | null;
  waitedMs: number;
}

const quietLogger: AgentLogger = { info: () => {}, warn: () => {}, error: () => {} };

function titleFrom(message: string): string {
  const line = message.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New conversation';
}

export function createAgentService(deps: AgentServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const logger = deps.logger ?? quietLogger;
  // Problems already logged once (see execute): code + message.
  const loggedProblems = new Set<string>();
  const store = createTurnStore(deps.db, now);
  const attachments = deps.fermixHome ? createAttachmentStore({ db: deps.db, home: deps.fermixHome, now }) : undefined;
  const queue = createTurnQueue();
  const providers = createProviderService({ config: deps.config, secrets: deps.secrets ?? systemSecrets, fetch: deps.fetch, ollamaOrigin: deps.ollamaOrigin });
  const requests = createRequestBuilder({
    registry: deps.registry,
    deferralEnabled: () => deps.config().fermix_core.tools.tool_search.enabled,
    pluginStatus: deps.pluginStatus ?? (() => []),
    skillCatalog: deps.skillCatalog ?? (() => []),
    memoryPrompt: deps.memoryPrompt,
    // Main-agent turns also get the subagents port (workers are built without it: no recursion).
    services: () => ({ ...(deps.services?.() ?? {}), subagents }),
    now,
  });
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...deps.retry };
  const compactions = createCompactionStore(deps.db, now);
  const compactor = createCompactor({ store: compactions, config: deps.config });
  /** conversation id → its running turn (one at a time per conversation). */
  const running = new Map<string, ActiveTurn>();
  /** turn id → controller of every queued or running turn, for /stop and shutdown. */
  const controllers = new Map<string, { conversationId: string; controller: AbortController }>();
  const waiters = new Map<string, ((summary: TurnSummary) => void)[]>();
  /** conversation id → its pause switch, while it has turns to run (turn-hold.ts). */
  const holds = new Map<string, TurnHold>();
  const subagents = createSubagentRunner({
    registry: deps.registry, invoker: deps.invoker, events: deps.events, config: deps.config, services: deps.services ?? (() => ({})),
    handles: (route) => (route ? routedHandles(deps.config(), (config) => providers.handles(config), route, ROUTING_SETUP_HINT) : providers.handles()), parentTurn: (id) => running.get(id)?.turnId ?? null, parentStore: store,
    checkpoint: (id, signal) => holds.get(id)?.checkpoint(signal) ?? Promise.resolve(), retry, now,
  });
  let shuttingDown = false;

  // AI SDK warnings go to the console by default; the daemon's console is not a log.
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;

  const unsubscribe = deps.approvals.subscribe((event) => {
    const conversationId = event.approval.conversation_id;
    const active = conversationId ? running.get(conversationId) : undefined;
    if (!active) return;
    if (event.type === 'requested' && active.currentCall) {
      active.approvalId = event.approval.id;
      active.parkedAt = Date.now();
      store.park({ turn_id: active.turnId, call_id: active.currentCall, approval_id: event.approval.id, capability: event.approval.capability, reason: event.approval.reason, card: event.approval });
      active.emitter?.emit('chat.parked', { turn_id: active.turnId, call_id: active.currentCall, approval_id: event.approval.id, capability: event.approval.capability, reason: event.approval.reason, card: event.approval });
    } else if (event.approval.id === active.approvalId && !shuttingDown) {
      // Answered, or cancelled by /stop: either way the turn is no longer waiting.
      active.approvalId = null;
      if (active.parkedAt !== null) active.waitedMs += Date.now() - active.parkedAt;
      active.parkedAt = null;
      store.unpark(active.turnId);
      if (event.type === 'answered') active.emitter?.emit('chat.resumed', { turn_id: active.turnId, approval_id: event.approval.id, answer: event.answer });
    }
  });

  function summary(turnId: string, text = ''): TurnSummary {
    return summaryOf(store.getTurn(turnId), text);
  }

  function summaryOf(row: TurnRow, text: string): TurnSummary {
    return {
      turn_id: row.id,
      conversation_id: row.conversation_id,
      status: row.status,
      text,
      stop_reason: row.stop_reason,
      error: row.error_code ? { code: row.error_code, message: row.error_message ?? '', hint: row.error_hint ?? '' } : null,
      provider: row.provider,
      model: row.model,
      iterations: row.iterations,
      usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens },
      cost_usd: row.cost_usd,
      hold: FINISHED_STATUSES.has(row.status) ? null : (holds.get(row.conversation_id)?.state() ?? 'running'),
    };
  }

  /** The turn a pause is about: the conversation's running turn, else its oldest queued one. */
  function currentTurnOf(conversationId: string): string | null {
    const runningTurn = running.get(conversationId);
    if (runningTurn) return runningTurn.turnId;
    for (const [turnId, entry] of controllers) if (entry.conversationId === conversationId && !entry.controller.signal.aborted) return turnId;
    return null;
  }

  function holdFor(conversationId: string): TurnHold {
    let hold = holds.get(conversationId);
    if (!hold) {
      hold = createTurnHold((state) => {
        const turnId = currentTurnOf(conversationId);
        if (turnId) createTurnEmitter(deps.events, conversationId, turnId, () => {}).emit('chat.turn_hold', { turn_id: turnId, conversation_id: conversationId, state });
      });
      holds.set(conversationId, hold);
    }
    return hold;
  }

  function lastAnswer(turnId: string, conversationId: string): string {
    const row = deps.db.get<{ content: string }>("SELECT content FROM messages WHERE conversation_id = ? AND turn_id = ? AND role = 'assistant' AND content != '' ORDER BY id DESC LIMIT 1", [conversationId, turnId]);
    return row?.content ?? '';
  }

  function settle(turnId: string, result: TurnSummary): void {
    for (const resolve of waiters.get(turnId) ?? []) resolve(result);
    waiters.delete(turnId);
  }

  async function execute(turnId: string, resumed: boolean): Promise<void> {
    const entry = controllers.get(turnId)!;
    const turn = store.getTurn(turnId);
    const conversationId = turn.conversation_id;
    const emitter = createTurnEmitter(deps.events, conversationId, turnId, (error) => logger.error('chat event rejected', { error: String(error) }));
    const active: ActiveTurn = { turnId, controller: entry.controller, emitter, currentCall: null, approvalId: null, parkedAt: null, waitedMs: 0 };
    running.set(conversationId, active);
    let outcome: TurnOutcome;
    try {
      // A resumed turn stays `parked` until its call is asked again or runs (a crash in between
      // must find it parked again, not running).
      if (!resumed) {
        const files = turn.options.attachments ?? [];
        store.appendMessage(conversationId, turnId, { role: 'user', text: turn.options.message ?? '', ...(files.length > 0 ? { attachments: files } : {}) });
        store.setStatus(turnId, 'running');
      }
      emitter.emit('chat.turn_started', { turn_id: turnId, conversation_id: conversationId, resumed });
      logger.info('turn started', { turn_id: turnId, conversation_id: conversationId, origin: turn.options.origin ?? 'chat', resumed });
      const candidates = providers.handles();
      if (entry.controller.signal.aborted) {
        outcome = shuttingDown ? { status: 'interrupted', text: '', stop_reason: 'daemon_shutdown', error: null } : { status: 'stopped', text: '', stop_reason: 'stopped', error: null };
      } else if (candidates.length === 0) {
        outcome = outcomeError(await providers.noProvider());
      } else {
        await loadAiSdk(); // first turn only: the SDK is not loaded at start-up
        // Every run has a role (Voss). A job run carries the role stamped on its job (main/jobs); inbound MCP
        // has none of its own yet and runs under the main agent's role (subagent workers: subagents/worker-role.ts).
        const role = (turn.options.role as Role | undefined) ?? mainAgentRole(deps.config());
        // Preflight (reference §1.2 step 4): a conversation that grew past the threshold is compacted first.
        await autoCompact(conversationId, candidates[0], turn.options, entry.controller.signal, turnId);
        outcome = await runTurn({
          turn: store.getTurn(turnId),
          store,
          invoker: deps.invoker,
          emitter,
          signal: entry.controller.signal,
          shuttingDown: () => shuttingDown,
          candidates,
          prepare: () => requests.prepare(conversationId, turn.options.trust, turn.options.origin ?? 'chat', role, turn.options.allowed_tools),
          role,
          retry,
          maxIterations: deps.maxIterations ?? ITERATION_CAPS[turn.options.kind],
          checkpoint: () => holds.get(conversationId)?.checkpoint(entry.controller.signal) ?? Promise.resolve(),
          readAttachment: attachments ? (ref) => attachments.readBytes(ref.id) : undefined,
          context: {
            history: (id, level) => compactor.history(id, level),
            recompress: async (id, handle, level, signal, cause) => {
              compactor.learnWindow(handle, cause);
              try {
                await compactor.compact(id, handle, { reason: 'overflow', level, signal });
              } catch (error) {
                // The summary call itself did not fit: the next attempt compacts harder (or the turn fails, named).
                if (!isContextOverflow(error)) throw error;
                logger.warn('compaction did not fit the context window', { turn_id: turnId, level });
              }
            },
            overflowError: (handle, cause) => compactor.overflowError(handle, cause),
            maxRecompressions: MAX_RECOMPRESSIONS,
          },
          setCurrentCall: (callId) => {
            // Cleared after a call: hand back its approval wait (tool-dispatch.ts subtracts it), start afresh.
            const waited = active.waitedMs;
            active.currentCall = callId;
            active.waitedMs = 0;
            active.parkedAt = null;
            return callId === null ? waited : undefined;
          },
          onHistoryRepair: (message) => {
            logger.warn('history repaired before a model request', { turn_id: turnId, repair: message });
            emitter.emit('chat.warning', { turn_id: turnId, code: 'history_repaired', message });
          },
        });
      }
    } catch (error) {
      // A FermixError (a bad config.toml, a missing key) is a known condition: one warning per distinct
      // problem, not a stack trace at error level on every turn until it is fixed.
      if (isFermixError(error)) {
        const key = `${error.code}:${error.message}`;
        if (!loggedProblems.has(key)) {
          loggedProblems.add(key);
          logger.warn('turn failed', { turn_id: turnId, code: error.code, error: error.message, hint: error.hint });
        }
      } else {
        logger.error('turn failed unexpectedly', { turn_id: turnId, error: String((error as Error)?.stack ?? error) });
      }
      outcome = outcomeError(error);
    } finally {
      running.delete(conversationId);
      controllers.delete(turnId);
      // A pause lapses when the conversation has nothing left to run (turn-hold.ts).
      if (![...controllers.values()].some((other) => other.conversationId === conversationId)) holds.delete(conversationId);
    }
    if (outcome.leftParked) {
      logger.info('turn left parked for the next start', { turn_id: turnId });
      settle(turnId, summary(turnId));
      return;
    }
    store.finishTurn(turnId, { status: outcome.status, stop_reason: outcome.stop_reason, error: outcome.error });
    const text = outcome.text || lastAnswer(turnId, conversationId);
    const result = summary(turnId, text);
    logger.info('turn finished', { turn_id: turnId, conversation_id: conversationId, status: result.status, stop_reason: result.stop_reason, provider: result.provider, model: result.model, error_code: result.error?.code ?? null, input_tokens: result.usage.input_tokens, output_tokens: result.usage.output_tokens });
    if (outcome.error) emitter.emit('chat.error', { turn_id: turnId, ...outcome.error });
    emitter.emit('chat.turn_finished', { ...result, status: result.status as never });
    settle(turnId, result);
    // After the reply (reference §1.2 step 6), still in the conversation's queue slot: the next turn waits for it.
    const handle = providers.handles().find((each) => each.provider.name === result.provider) ?? providers.handles()[0];
    // The first exchange names the conversation (conversation-title.ts), with the provider that answered it.
    if (handle?.provider.name === result.provider && result.status === 'completed' && !shuttingDown && deps.config().fermix_core.model_titles && wantsModelTitle(deps.db, conversationId, turnId)) {
      await writeModelTitle({ db: deps.db, store, events: deps.events, logger, handle, conversationId, turnId, firstMessage: turn.options.message ?? '', answer: text });
    }
    if (handle && !shuttingDown && outcome.status !== 'interrupted') await autoCompact(conversationId, handle, turn.options, new AbortController().signal, turnId);
  }

  function configuredMainRole(): Role | null {
    try {
      return mainAgentRole(deps.config());
    } catch {
      return null;
    }
  }

  /** Compacts when the next request would pass the threshold; a failure is logged, never the turn's. */
  async function autoCompact(conversationId: string, handle: ProviderHandle, options: TurnOptions, signal: AbortSignal, turnId: string): Promise<CompactionRow | null> {
    try {
      // The turn's own role and allowed tools: the overhead is what its request carries, and the same request
      // shape keeps the request builder's tool and prompt caches (a role-less shape rebuilt both twice a turn).
      // A bad [agents.main] role already failed the turn, named; here it only means no role.
      const role = (options.role as Role | undefined) ?? configuredMainRole();
      const prepared = requests.prepare(conversationId, options.trust, options.origin ?? 'chat', role, options.allowed_tools);
      if (!compactor.shouldCompact(conversationId, handle, overheadTokens(prepared.system, prepared.presentation.advertised))) return null;
      const row = await compactor.compact(conversationId, handle, { reason: 'auto', signal });
      if (row) logger.info('conversation compacted', { conversation_id: conversationId, turn_id: turnId, replaced: row.replaced_messages, tokens_before: row.tokens_before, tokens_after: row.tokens_after });
      return row;
    } catch (error) {
      logger.warn('compaction failed', { conversation_id: conversationId, turn_id: turnId, error: String((error as Error)?.message ?? error) });
      return null;
    }
  }

  function schedule(turn: TurnRow, resumed: boolean): Promise<TurnSummary> {
    const controller = new AbortController();
    controllers.set(turn.id, { conversationId: turn.conversation_id, controller });
    const done = new Promise<TurnSummary>((resolve) => waiters.set(turn.id, [...(waiters.get(turn.id) ?? []), resolve]));
    void queue.enqueue(turn.conversation_id, () => execute(turn.id, resumed)).catch((error: unknown) => {
      logger.error('turn job failed', { turn_id: turn.id, error: String(error) });
      settle(turn.id, summary(turn.id));
    });
    return done;
  }

  return {
    store,
    providers,
    /** Queues a turn. `done` resolves when it has finished (or was left parked at shutdown). */
    send(input: SendInput): { conversation_id: string; turn_id: string; position: number; done: Promise<TurnSummary> } {
      if (shuttingDown) throw new FermixError({ code: 'daemon_stopping', message: 'The daemon is stopping and takes no new messages.', hint: 'Start it again with `fermix daemon`, then resend.' });
      // Before anything is written: a refused send must leave no conversation or turn behind.
      const files = checkSendAttachments(attachments, input.attachment_ids, input.conversation_id);
      let conversationId = input.conversation_id;
      if (conversationId === undefined) {
        conversationId = randomUUID();
        store.ensureConversation(conversationId, input.title ?? titleFrom(input.message));
      } else if (!store.conversationExists(conversationId)) {
        if (!input.create_if_missing) {
          throw new FermixError({ code: 'conversation_not_found', message: `No conversation with id ${conversationId}.`, hint: 'List conversations with `conversations.list`, or leave the id out to start a new one.', data: { id: conversationId } });
        }
        store.ensureConversation(conversationId, input.title ?? titleFrom(input.message));
      }
      const options: TurnOptions = {
        trust: input.trust ?? 'operator',
        origin: input.origin ?? 'chat',
        interactive: input.interactive ?? true,
        kind: input.kind ?? 'interactive',
        message: input.message,
        ...(input.cwd ? { cwd: input.cwd } : {}),
        ...(input.role ? { role: input.role } : {}),
        ...(input.allowed_tools ? { allowed_tools: input.allowed_tools } : {}),
        ...(files.length > 0 ? { attachments: files.map(toRef) } : {}),
      };
      const turn = deps.db.transaction(() => {
        const created = store.createTurn(randomUUID(), conversationId, options);
        if (files.length > 0) attachments?.claim(files.map((file) => file.id), created.id);
        return created;
      });
      const position = queue.depth(conversationId);
      const done = schedule(turn, false);
      createTurnEmitter(deps.events, conversationId, turn.id, () => {}).emit('chat.turn_queued', { turn_id: turn.id, conversation_id: conversationId, position });
      return { conversation_id: conversationId, turn_id: turn.id, position, done };
    },
    /** chat.fork: the messages before a finished turn in a new conversation, then the turn sent again there. */
    fork(input: { conversation_id: string; turn_id: string; message?: string; trust?: TurnOptions['trust'] }) {
      const forked = forkBeforeTurn(deps.db, store, input);
      const sent = this.send({ message: forked.message, conversation_id: forked.conversation_id, trust: input.trust, origin: 'chat' });
      return { ...sent, title: forked.title };
    },
    /** `/stop`: the running turn (and its tool) and every turn queued behind it. */
    stop(conversationId: string): number {
      let stopped = 0;
      for (const [, entry] of controllers) {
        if (entry.conversationId !== conversationId || entry.controller.signal.aborted) continue;
        entry.controller.abort(new FermixError({ code: 'cancelled', message: 'Stopped by /stop.', hint: 'Send a message to continue; the conversation and its earlier turns are kept.' }));
        stopped += 1;
      }
      return stopped;
    },
    /** Pause: the running turn holds before its next model or tool call; queued turns wait too. */
    pauseTurn(conversationId: string): HoldResult {
      const turnId = currentTurnOf(conversationId);
      if (!turnId) return { turn_id: null, state: 'running', changed: false };
      const hold = holdFor(conversationId);
      const changed = hold.pause();
      return { turn_id: turnId, state: hold.state(), changed };
    },
    resumeTurn(conversationId: string): HoldResult {
      const hold = holds.get(conversationId);
      const changed = hold?.resume() ?? false;
      return { turn_id: currentTurnOf(conversationId), state: hold?.state() ?? 'running', changed };
    },
    holdState(conversationId: string): HoldState {
      return holds.get(conversationId)?.state() ?? 'running';
    },
    /** Waits for a turn; resolves immediately with its summary when it is already finished. */
    wait(turnId: string): Promise<TurnSummary> {
      const row = store.getTurn(turnId);
      if (FINISHED_STATUSES.has(row.status)) return Promise.resolve(summary(turnId, lastAnswer(turnId, row.conversation_id)));
      return new Promise((resolve) => waiters.set(turnId, [...(waiters.get(turnId) ?? []), resolve]));
    },
    /** chat.turns: a conversation's newest turns (oldest first) with their tool calls, in three queries. */
    turnsOf(conversationId: string, limit: number): (TurnSummary & { created_at: string; finished_at: string | null; tool_calls: ReturnType<TurnStore['toolCalls']> })[] {
      const rows = store.listTurns(conversationId, limit);
      const ids = rows.map((row) => row.id);
      const answers = store.lastAnswers(conversationId, ids);
      const calls = store.toolCallsOf(ids);
      return rows.map((row) => ({ ...summaryOf(row, answers.get(row.id) ?? ''), created_at: row.created_at, finished_at: row.finished_at, tool_calls: calls.get(row.id) ?? [] }));
    },
    turn(turnId: string): TurnSummary {
      const row = store.getTurn(turnId);
      return summary(turnId, lastAnswer(turnId, row.conversation_id));
    },
    /**
     * At start-up: unfinished running turns become `interrupted`; parked turns are queued again and
     * ask for their approval anew (the old card died with the old process). Returns how many resumed.
     */
    start(): number {
      const interrupted = store.interruptUnfinished('The daemon stopped while this turn was running.');
      if (interrupted > 0) logger.warn('turns interrupted by a daemon stop', { count: interrupted });
      const parked = store.parkedTurns();
      for (const turn of parked) void schedule(turn, true);
      return parked.length;
    },
    compactions,
    /**
     * `/compact` (chat.compact): summarizes the conversation now, in its queue (after the running turn).
     * Null when there is nothing to replace; errors (no provider, the summary call failed) are thrown.
     */
    async compact(conversationId: string): Promise<CompactionRow | null> {
      if (!store.conversationExists(conversationId)) {
        throw new FermixError({ code: 'conversation_not_found', message: `No conversation with id ${conversationId}.`, hint: 'List conversations with `conversations.list` or open one from the sidebar.', data: { id: conversationId } });
      }
      let row: CompactionRow | null = null;
      await queue.enqueue(conversationId, async () => {
        const handle = providers.handles()[0];
        if (!handle) throw await providers.noProvider();
        await loadAiSdk();
        row = await compactor.compact(conversationId, handle, { reason: 'manual', signal: new AbortController().signal });
      });
      return row;
    },
    /** skill_run: a supervised sub-turn through the same loop, with the tools the skill runner chose. */
    runSubTurn(request: SubTurnRequest): Promise<SubTurnResult> {
      const candidates = (route: SubTurnRequest['route']) => (route ? routedHandles(deps.config(), (config) => providers.handles(config), route, route.hint) : providers.handles());
      return runSubTurn({ db: deps.db, store, invoker: deps.invoker, events: deps.events, candidates, retry, role: () => mainAgentRole(deps.config()) }, request);
    },
    /** Plugin enable/disable/logout: the next turn rebuilds its runtime prompt. */
    invalidatePrompts(): void {
      requests.clearPrompts();
    },
    /** Shutdown: running turns end `interrupted`, parked ones stay parked for the next start. */
    async close(): Promise<void> {
      shuttingDown = true;
      for (const [, entry] of controllers) entry.controller.abort(new FermixError({ code: 'daemon_stopping', message: 'The daemon is stopping.', hint: '' }));
      await Promise.race([queue.idle(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
      unsubscribe();
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
