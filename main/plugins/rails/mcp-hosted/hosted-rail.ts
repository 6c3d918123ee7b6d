/**
 * The hosted-MCP plugin rail (plugin_api 3): one session per ready hosted plugin, its live state in
 * memory only (connecting, ready, reauthorization_required, upstream_contract_mismatch, …). A connect
 * is initialize → contract check (the chosen profile's tools and the setup tools, all-or-none) → the
 * discovery tool (the pinned workspace must still be listed; a write profile needs a write-scoped
 * token) → register. Only unreachability is retried: 3 attempts within the 60 s startup window; a
 * rejected token, a policy refusal, a protocol or contract mismatch stops at once and stays visible
 * until the plugin's settings change or it is restarted. Tools register as kind mcp in the plugin's
 * family (as on the local rail); the workspace argument is hidden from the model and injected.
 */
import { createHash } from 'node:crypto';
import type { CapabilityRegistry } from '../../../core/capabilities/index.js';
import { FermixError, isFermixError } from '../../../core/errors.js';
import type { PluginManifest } from '../../manifest.js';
import type { HttpRailNet } from '../http/interpreter.js';
import { pluginMcpCapability, pluginMcpFamily } from '../mcp-local/local-rail.js';
import { createHostedSession, type HostedSession } from './connection.js';
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
}

export interface HostedRailOptions {
  registry: CapabilityRegistry;
  net: HttpRailNet;
  /** Tests shorten the retry delays and the pacing gap; the limits themselves stay. */
  retryDelaysMs?: readonly number[];
  pacing?: { minGapMs: number; maxQueued: number };
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
  const state: HostedState = { status: 'connecting', tools: [], last_error: null, last_code: null, attempts: 0 };
  const replaySafe = new Set(manifest.tools.filter((tool) => tool.replay_safe === true).map((tool) => tool.name));
  const delays = options.retryDelaysMs ?? HOSTED_STARTUP.retryDelaysMs;
  let session: HostedSession | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let waiters: Array<() => void> = [];
  let reopening: Promise<HostedSession> | null = null;
  const startedAt = Date.now();
  const pacer = createCallPacer(name, options.pacing ?? HOSTED_PACING);
  const openSession = () => createHostedSession({ plugin: name, url: endpointOf(manifest), token: spec.token, declared: declaredContract(manifest, [...profileOf(manifest, choice.profile).tools, ...(manifest.setup_tools ?? [])]), net: options.net, pacer });

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

  async function attempt(): Promise<void> {
    if (stopped) return;
    state.attempts += 1;
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
        return pluginMcpCapability(manifest, registered, definition, true, async (args, signal) => {
          // Refused before any request: the model never picks the workspace.
          if (argument && Object.hasOwn(args, argument)) throw refuseModelWorkspace(name, registered, argument);
          const live = session;
          if (!live || state.status !== 'ready') throw stopError('mcp_unavailable', `${manifest.display_name} is not connected (${state.status}).`, `Run \`fermix plugins doctor ${name}\` to see why.`, name);
          const sent = argument ? { ...args, [argument]: choice.workspace_id } : args;
          try {
            try {
              return applyResultContract(manifest, registered, await live.call(upstream, sent, signal));
            } catch (error) {
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
      const delay = delays[Math.min(state.attempts - 1, delays.length - 1)] ?? 0;
      const retry = failure.code === 'remote_unreachable' && state.attempts < HOSTED_STARTUP.attempts && Date.now() - startedAt + delay <= HOSTED_STARTUP.windowMs;
      if (!retry) {
        state.status = failure.code;
        return settle();
      }
      state.status = 'connecting';
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
