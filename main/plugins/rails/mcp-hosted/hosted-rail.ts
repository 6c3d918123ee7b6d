/**
 * The hosted-MCP plugin rail (plugin_api 3): one session per ready hosted plugin, its live state in
 * memory only (connecting, ready, reauthorization_required, upstream_contract_mismatch, …). A connect
 * is initialize → contract check (the chosen profile's tools and the setup tools, all-or-none) → the
 * discovery tool (the pinned workspace must still be listed; a write profile needs a write-scoped
 * token) → register. Only unreachability is retried: 3 attempts within the 60 s startup window; a
 * rejected token, a policy refusal, a protocol or contract mismatch stops at once and stays visible
 * until the plugin's settings change or it is restarted. Tools register as kind mcp in the plugin's
 * family (as on the local rail); the workspace argument is hidden from the model and injected.
 * Live (limits.ts, reference §2.5): `notifications/tools/list_changed` re-runs the all-or-none check
 * (at most 3 per session, 5 s apart; drift → zero tools, upstream_contract_mismatch); calls made while
 * an expired session is re-initialized are held and drained onto the new one, inside the 60 s call
 * deadline; 3 invalid results in a row mark a broken peer (remote_protocol_error, zero tools); the
 * manifest's `budgets` cap calls per agent turn (turn-budget.ts); a tool's `argument_guards` and
 * `collection_policy` shape each call before it is sent and its items after (call-shaping.ts).
 * A 429/503 at startup is retried no sooner than its Retry-After; one that would end past the 60 s
 * startup window stops the plugin as remote_busy, showing the wait and when it ends.
 */
import { createHash } from 'node:crypto';
import type { CapabilityRegistry } from '../../../core/capabilities/index.js';
import { FermixError, isFermixError } from '../../../core/errors.js';
import type { PluginManifest } from '../../manifest.js';
import type { HttpRailNet } from '../http/interpreter.js';
import { pluginMcpCapability, pluginMcpFamily } from '../mcp-local/local-rail.js';
import type { ExecutionContext } from '../../../core/capabilities/index.js';
import { createHostedSession, type HostedSession } from './connection.js';
import { createRediscoveryGate, HOSTED_DEADLINES, HOSTED_LIMITS, protocolError } from './limits.js';
import { createTurnBudget } from './turn-budget.js';
import { callShaping } from './call-shaping.js';
import { createCallPacer, HOSTED_PACING } from './pacer.js';
import { applyResultContract, declaredContract, profileOf, refuseModelWorkspace, upstreamName, withoutArgument } from './hosted-tools.js';
import type { HostedChoice } from './workspace-choice.js';

export const HOSTED_STARTUP = Object.freeze({ attempts: 3, windowMs: 60_000, retryDelaysMs: [2_000, 8_000] });

export interface HostedPluginSpec {
  manifest: PluginManifest;
  token: string;
  choice: HostedChoice;
}

export interface HostedState {
  status: string;
  tools: string[];
  last_error: string | null;
  last_code: string | null;
  attempts: number;
  /** tools/list_changed rediscoveries run in the current session. */
  rediscoveries: number;
  /** Calls waiting for a re-initialized session. */
  held: number;
  /** While a startup retry is scheduled: how long it waits (the backoff, or the service's Retry-After when longer). */
  next_attempt_in_ms: number | null;
  /** Startup stopped as remote_busy: the wait the service asked for, and when it ends (ISO time). */
  retry_after_ms: number | null;
  retry_at: string | null;
}

export interface HostedRailOptions {
  registry: CapabilityRegistry;
  net: HttpRailNet;
  /** Tests shorten the retry delays and the pacing gap; the limits themselves stay. */
  retryDelaysMs?: readonly number[];
  pacing?: { minGapMs: number; maxQueued: number };
  /** Tests shorten the rediscovery spacing; the cap of 3 per session stays unless given. */
  rediscovery?: { max: number; spacingMs: number };
}

export const endpointOf = (manifest: PluginManifest): string => {
  const runtime = manifest.runtime;
  if (runtime?.kind !== 'remote_mcp') throw new Error(`${manifest.name} is not a hosted plugin`);
  return `${runtime.base_url.replace(/\/$/, '')}${runtime.mcp_path}`;
};

export interface DiscoveredWorkspaces {
  workspaces: { id: string; label: string }[];
  credential_scope: 'read' | 'write';
}

/** Calls the setup discovery tool in an open session; the answer's `credential_scope` is the token's scope (read when absent). */
async function listWorkspaces(manifest: PluginManifest, session: HostedSession): Promise<DiscoveredWorkspaces> {
  const scope = manifest.resource_scope;
  if (!scope) return { workspaces: [], credential_scope: 'read' };
  const result = applyResultContract(manifest, scope.discovery_tool, await session.call(upstreamName(manifest, scope.discovery_tool), {}));
  const body = (result.data ?? {}) as Record<string, unknown>;
  const items = Array.isArray(body.workspaces) ? body.workspaces : [];
  const workspaces = items.flatMap((item) => {
    const record = (item ?? {}) as Record<string, unknown>;
    const id = record[scope.id_field];
    const label = record[scope.label_field];
    return typeof id === 'string' && id !== '' ? [{ id, label: typeof label === 'string' ? label : id }] : [];
  }).slice(0, 200);
  return { workspaces, credential_scope: body.credential_scope === 'write' ? 'write' : 'read' };
}

/** The setup screen's workspace list: a one-off session checked against the setup tools' contract only. */
export async function discoverWorkspaces(manifest: PluginManifest, token: string, net: HttpRailNet): Promise<DiscoveredWorkspaces> {
  const session = createHostedSession({ plugin: manifest.name, url: endpointOf(manifest), token, declared: declaredContract(manifest, manifest.setup_tools ?? []), net });
  try {
    await session.connect();
    await session.discover();
    return await listWorkspaces(manifest, session);
  } finally {
    await session.close();
  }
}

const stopError = (code: string, message: string, hint: string, plugin: string) => new FermixError({ code, message, hint, data: { plugin } });

function createHostedRunner(spec: HostedPluginSpec, options: HostedRailOptions) {
  const { manifest, choice } = spec;
  const name = manifest.name;
  const family = pluginMcpFamily(name);
  const state: HostedState = { status: 'connecting', tools: [], last_error: null, last_code: null, attempts: 0, rediscoveries: 0, held: 0, next_attempt_in_ms: null, retry_after_ms: null, retry_at: null };
  const replaySafe = new Set(manifest.tools.filter((tool) => tool.replay_safe === true).map((tool) => tool.name));
  const delays = options.retryDelaysMs ?? HOSTED_STARTUP.retryDelaysMs;
  let session: HostedSession | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let waiters: Array<() => void> = [];
  let reopening: Promise<HostedSession> | null = null;
  const startedAt = Date.now();
  const pacer = createCallPacer(name, options.pacing ?? HOSTED_PACING);
  const budget = createTurnBudget(manifest);
  const gates = new WeakMap<HostedSession, ReturnType<typeof createRediscoveryGate>>();
  let rediscoveryTimer: NodeJS.Timeout | null = null;
  let invalidInARow = 0;
  const openSession = () => {
    const created: HostedSession = createHostedSession({ plugin: name, url: endpointOf(manifest), token: spec.token, declared: declaredContract(manifest, [...profileOf(manifest, choice.profile).tools, ...(manifest.setup_tools ?? [])]), net: options.net, pacer, onToolsChanged: () => toolsChanged(created) });
    gates.set(created, createRediscoveryGate(options.rediscovery));
    return created;
  };

  /** list_changed: one rediscovery at a time (later notifications while one is pending are folded in), capped per session. */
  function toolsChanged(from: HostedSession): void {
    if (stopped || from !== session || state.status !== 'ready' || rediscoveryTimer) return;
    const wait = gates.get(from)?.request() ?? null;
    if (wait === null) return; // cap spent: the next connect re-checks the contract
    rediscoveryTimer = setTimeout(() => {
      rediscoveryTimer = null;
      void rediscover(from);
    }, wait);
  }
  async function rediscover(from: HostedSession): Promise<void> {
    if (stopped || from !== session) return;
    try {
      await from.discover();
      state.rediscoveries += 1;
    } catch (error) {
      if (stopped || from !== session) return;
      state.rediscoveries += 1;
      // Drift or a broken peer stops the plugin with zero tools; a blip leaves the checked tools in place.
      if (isFermixError(error) && error.code !== 'remote_unreachable' && error.code !== 'remote_busy' && error.code !== 'remote_session_expired') stopWith(error);
    }
  }
  /** A call made while the session is re-initialized waits for it (inside its own deadline), then goes to the new one. */
  async function liveSession(signal: AbortSignal): Promise<HostedSession | null> {
    const pending = reopening;
    if (!pending) return session;
    state.held += 1;
    return await new Promise<HostedSession>((resolve, reject) => {
      const onAbort = () => reject(stopError('timeout', `${manifest.display_name} was still reconnecting when the call's ${HOSTED_DEADLINES.callMs / 1000} s deadline passed.`, 'Try again in a moment.', name));
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(resolve, reject).finally(() => {
        state.held -= 1;
        signal.removeEventListener('abort', onAbort);
      });
    });
  }
  /** Counts consecutive invalid results; the third marks a broken peer. */
  function noteResult(error: unknown): void {
    if (!isFermixError(error)) return void (invalidInARow = 0);
    if (error.data?.invalid_result !== true) return;
    invalidInARow += 1;
    if (invalidInARow >= HOSTED_LIMITS.invalidResultsInARow) stopWith(protocolError(name, `${invalidInARow} invalid results in a row (a broken peer; its tools were withdrawn)`));
  }

  /** Session expiry: one new session (initialize + the contract check again) shared by every call that met the 404. */
  function reopen(expired: HostedSession): Promise<HostedSession> {
    if (session && session !== expired) return Promise.resolve(session);
    reopening ??= (async () => {
      const fresh = openSession();
      try {
        await fresh.connect();
        await fresh.discover();
      } catch (error) {
        await fresh.close();
        if (isFermixError(error)) stopWith(error);
        throw error;
      }
      if (stopped) {
        await fresh.close();
        throw stopError('mcp_unavailable', `${manifest.display_name} was stopped.`, `Run \`fermix plugins doctor ${name}\`.`, name);
      }
      void expired.close();
      session = fresh;
      state.rediscoveries = 0;
      return fresh;
    })().finally(() => {
      reopening = null;
    });
    return reopening;
  }
  const settle = () => {
    const pending = waiters;
    waiters = [];
    for (const resolve of pending) resolve();
  };
  const unregister = () => {
    options.registry.unregister_kind('mcp', family);
    state.tools = [];
  };

  /** A live failure after ready (a revoked token) also stops the plugin visibly, with zero tools. */
  function stopWith(error: FermixError): void {
    unregister();
    state.status = error.code;
    state.last_error = error.message;
    state.last_code = error.code;
    void session?.close();
    session = null;
  }

  /** The service asked for more quiet than the startup window (or attempts) has left: stop, showing when it may be tried again. */
  function stopBusy(waitMs: number, why: string): void {
    const at = new Date(Date.now() + waitMs);
    state.status = 'remote_busy';
    state.retry_after_ms = waitMs;
    state.retry_at = at.toISOString();
    state.last_code = 'remote_busy';
    state.last_error = `${manifest.display_name} asked Fermix to wait ${Math.ceil(waitMs / 1000)} s (until ${at.toISOString().slice(11, 19)} UTC), ${why}, so it stopped trying; after that time run \`fermix plugins disable ${name}\` and \`fermix plugins enable ${name}\` (or switch it off and on on the Plugins screen).`;
    settle();
  }

  async function attempt(): Promise<void> {
    if (stopped) return;
    state.attempts += 1;
    state.next_attempt_in_ms = null;
    const profile = profileOf(manifest, choice.profile);
    const argument = manifest.resource_scope?.argument;
    const current = openSession();
    session = current;
    try {
      await current.connect();
      const definitions = new Map((await current.discover()).map((tool) => [tool.name, tool]));
      const found = await listWorkspaces(manifest, current);
      if (manifest.resource_scope && !found.workspaces.some((workspace) => workspace.id === choice.workspace_id)) {
        throw stopError('workspace_unavailable', `The ${manifest.display_name} workspace "${choice.workspace_label}" is no longer reachable with this token.`, `Choose a workspace again on the Plugins screen (${manifest.display_name} → Setup).`, name);
      }
      if (profile.required_credential_scope === 'write' && found.credential_scope !== 'write') {
        throw stopError('insufficient_credential_scope', `The ${profile.display_name} profile of ${manifest.display_name} needs a write-scoped token, and the stored one is read-only.`, `Store a write-scoped token on the Plugins screen, or choose the read-only profile there.`, name);
      }
      if (stopped) return void (await current.close());
      const caps = profile.tools.map((registered) => {
        const upstream = upstreamName(manifest, registered);
        const definition = definitions.get(upstream)!;
        const cap = pluginMcpCapability(manifest, registered, definition, true, async (args, callerSignal) => {
          // Refused before any request: the model never picks the workspace.
          if (argument && Object.hasOwn(args, argument)) throw refuseModelWorkspace(name, registered, argument);
          // The 60 s call deadline counts from here: a wait for a reconnect and for the queue are inside it.
          const signal = AbortSignal.any([callerSignal, AbortSignal.timeout(HOSTED_DEADLINES.callMs)]);
          const live = await liveSession(signal);
          if (!live || state.status !== 'ready') throw stopError('mcp_unavailable', `${manifest.display_name} is not connected (${state.status}).`, `Run \`fermix plugins doctor ${name}\` to see why.`, name);
          const sent = argument ? { ...args, [argument]: choice.workspace_id } : args;
          try {
            try {
              const answer = await live.call(upstream, sent, signal);
              noteResult(null);
              return applyResultContract(manifest, registered, answer);
            } catch (error) {
              noteResult(error);
              if (!isFermixError(error) || error.code !== 'remote_session_expired') throw error;
              const fresh = await reopen(live);
              // Repeated only when the manifest says it is safe: a write may have been applied before the 404.
              if (!replaySafe.has(registered)) throw stopError('remote_session_expired', `${manifest.display_name} ended the session during ${registered}, which was not repeated because it may already have taken effect.`, `Check in ${manifest.display_name} whether it did, then call ${registered} again if not.`, name);
              return applyResultContract(manifest, registered, await fresh.call(upstream, sent, signal));
            }
          } catch (error) {
            if (isFermixError(error) && (error.code === 'reauthorization_required' || error.code === 'remote_security_blocked')) stopWith(error);
            throw error;
          }
        }, withoutArgument(definition.inputSchema, argument));
        const shaping = callShaping(manifest, registered);
        // Guards and the limit come first: a refused call spends no budget and sends nothing.
        return { ...cap, executor: async (args: Record<string, unknown>, context: ExecutionContext) => {
          const request = shaping.prepare(args);
          return shaping.finish(request, await budget.spend(registered, args, context, () => cap.executor!(request.args, context)));
        } };
      });
      options.registry.replace_kind('mcp', family, caps);
      Object.assign(state, { status: 'ready', tools: caps.map((cap) => cap.name), last_error: null, last_code: null });
      settle();
    } catch (error) {
      await current.close();
      if (session === current) session = null;
      if (stopped) return;
      const failure = isFermixError(error) ? error : stopError('remote_protocol_error', String(error), `Run \`fermix plugins doctor ${name}\`.`, name);
      unregister();
      state.last_error = failure.message;
      state.last_code = failure.code;
      const backoff = delays[Math.min(state.attempts - 1, delays.length - 1)] ?? 0;
      // A busy service (429/503) at startup is retried like an unreachable one, within the same window,
      // but not before its Retry-After (hosted-fetch.ts: ≤300 s, 60 s when absent) has passed.
      const busyMs = failure.code === 'remote_busy' && typeof failure.data?.retry_after_ms === 'number' ? failure.data.retry_after_ms : null;
      const delay = Math.max(backoff, busyMs ?? 0);
      const retryable = (failure.code === 'remote_unreachable' || failure.code === 'remote_busy') && state.attempts < HOSTED_STARTUP.attempts;
      const inWindow = Date.now() - startedAt + delay <= HOSTED_STARTUP.windowMs;
      if (!retryable || !inWindow) {
        if (busyMs !== null) return stopBusy(busyMs, retryable ? `past the ${HOSTED_STARTUP.windowMs / 1000} s startup window` : `after ${state.attempts} attempts`);
        state.status = failure.code;
        return settle();
      }
      state.status = 'connecting';
      state.next_attempt_in_ms = delay;
      timer = setTimeout(() => {
        timer = null;
        void attempt();
      }, delay);
    }
  }

  void attempt();
  return {
    state: (): HostedState => ({ ...state, tools: [...state.tools] }),
    settled: () => (state.status === 'connecting' ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (rediscoveryTimer) clearTimeout(rediscoveryTimer);
      unregister();
      state.status = 'stopped';
      settle();
      await session?.close();
      session = null;
    },
  };
}
type HostedRunner = ReturnType<typeof createHostedRunner>;

export function createHostedMcpRail(options: HostedRailOptions) {
  const runners = new Map<string, { key: string; spec: HostedPluginSpec; runner: HostedRunner }>();
  // The token is part of the key only as a hash: a new token reconnects, and no secret sits in the key.
  const keyOf = (spec: HostedPluginSpec) => JSON.stringify([spec.manifest.version, endpointOf(spec.manifest), createHash('sha256').update(spec.token).digest('hex'), spec.choice]);
  return {
    /** Starts, keeps or stops sessions so they match `specs` (a changed token, workspace, profile or version reconnects). */
    apply(specs: Record<string, HostedPluginSpec>): void {
      for (const [name, entry] of runners) {
        if (specs[name] === undefined) {
          runners.delete(name);
          void entry.runner.stop();
        }
      }
      for (const [name, spec] of Object.entries(specs)) {
        const key = keyOf(spec);
        const existing = runners.get(name);
        if (existing?.key === key) continue;
        if (existing) void existing.runner.stop();
        runners.set(name, { key, spec, runner: createHostedRunner(spec, options) });
      }
    },
    state: (name: string): HostedState | undefined => runners.get(name)?.runner.state(),
    restart(name: string): boolean {
      const entry = runners.get(name);
      if (!entry) return false;
      void entry.runner.stop();
      runners.set(name, { ...entry, runner: createHostedRunner(entry.spec, options) });
      return true;
    },
    async settled(): Promise<void> {
      await Promise.all([...runners.values()].map((entry) => entry.runner.settled()));
    },
    async close(): Promise<void> {
      await Promise.all([...runners.values()].map((entry) => entry.runner.stop()));
      runners.clear();
    },
  };
}
export type HostedMcpRail = ReturnType<typeof createHostedMcpRail>;
