/**
 * Supervision of operator-configured MCP servers (`[mcp.servers.<name>]`). Each server has its own
 * runner: an attempt is connect → initialize → discover → pin review → register. A failed attempt kills
 * the process tree and waits an exponential backoff; after `attempts` failures in a row (5) the server is
 * quarantined — tree killed, tools unregistered, status keeps the last error — until it is enabled,
 * restarted (`fermix mcp restart NAME`) or the daemon restarts. A connection that drops after it was
 * ready reconnects by itself; a drop within `stableMs` of becoming ready counts as a failed attempt, so
 * a server that crashes on every first call still ends in quarantine instead of looping forever.
 * Runners share nothing but the registry, so one crashing server never disturbs another.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CapabilityRegistry } from '../core/capabilities/registry.js';
import { isFermixError } from '../core/errors.js';
import { createMcpConnection, LOCAL_LIMITS, REMOTE_LIMITS, type McpConnection, type McpToolDefinition } from './client.js';
import { transportOf, type McpServerConfig } from './config.js';
import type { Pinning } from './pinning.js';
import { buildToolCapabilities, OPERATOR_FAMILY } from './tool-capabilities.js';

export const SERVER_STATUSES = ['connecting', 'ready', 'retrying', 'quarantined', 'disabled', 'needs_auth'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

export interface ServerState {
  name: string;
  transport: 'stdio' | 'streamable_http';
  /** Content leaves the machine (a Streamable HTTP server). */
  remote: boolean;
  status: ServerStatus;
  tools: string[];
  last_error: string | null;
  attempts: number;
  pid: number | null;
  changed_tools: string[];
}

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** Attempts in total before quarantine. */
  attempts: number;
  /** A connection that stayed up this long resets the failure count when it drops. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, maxMs: 30_000, attempts: 5, stableMs: 30_000 };

export type LifecycleEvent =
  | { phase: 'initialize' | 'discover' | 'ready' | 'owner_down' | 'teardown' | 'reconnect' | 'drift' | 'quarantine' | 'needs_auth'; server: string; attempt?: number; tools?: number; error?: string }
  | { phase: 'name_collision'; server: string; tool: string; name: string };

export interface SupervisorOptions {
  registry: CapabilityRegistry;
  pinning: Pinning;
  /** A fresh transport for one attempt (stdio process or HTTP session). */
  openTransport: (name: string, config: McpServerConfig) => Promise<Transport>;
  backoff?: Partial<BackoffOptions>;
  onEvent?: (event: LifecycleEvent) => void;
}

export interface McpSupervisor {
  /** Starts, stops and restarts runners so they match `servers` (changed config = fresh start). */
  apply(servers: Record<string, McpServerConfig>): void;
  restart(name: string): boolean;
  list(): ServerState[];
  get(name: string): ServerState | undefined;
  definitions(name: string): McpToolDefinition[];
  /** The server's current `[mcp.servers.<name>]` table (what a sign-in connects to). */
  config(name: string): McpServerConfig | undefined;
  /** Resolves once no runner (or only `name`'s) is connecting or retrying (tests, bench, a finished sign-in). */
  settled(name?: string): Promise<void>;
  close(): Promise<void>;
}

interface Runner {
  config: McpServerConfig;
  key: string;
  state: ServerState;
  generation: number;
  connection: McpConnection | null;
  readyAt: number;
  failures: number;
  timer: NodeJS.Timeout | null;
  definitions: McpToolDefinition[];
  sync: Promise<void>;
  idle: Promise<void>;
  markIdle: () => void;
  idleDone: boolean;
}

function message(error: unknown): string {
  if (isFermixError(error)) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.slice(0, 500) || 'unknown error';
}

export function createMcpSupervisor(options: SupervisorOptions): McpSupervisor {
  const backoff: BackoffOptions = { ...DEFAULT_BACKOFF, ...options.backoff };
  const runners = new Map<string, Runner>();
  const emit = (event: LifecycleEvent) => options.onEvent?.(event);
  let closed = false;

  const keyOf = (config: McpServerConfig) => JSON.stringify(config);

  function unregister(name: string): void {
    options.registry.unregister_kind('mcp', { ...OPERATOR_FAMILY, mcp_server: name });
  }

  /** A waiter on `idle` must never be left behind: a new promise only once the old one resolved. */
  function newIdle(runner: Runner): void {
    if (!runner.idleDone) return;
    runner.idleDone = false;
    runner.idle = new Promise((resolve) => (runner.markIdle = () => {
      runner.idleDone = true;
      resolve();
    }));
  }

  function setStatus(runner: Runner, status: ServerStatus): void {
    runner.state.status = status;
    if (status === 'ready' || status === 'quarantined' || status === 'disabled' || status === 'needs_auth') runner.markIdle();
    else if (status === 'connecting') newIdle(runner);
  }

  async function teardown(runner: Runner): Promise<void> {
    const connection = runner.connection;
    runner.connection = null;
    runner.state.pid = null;
    if (connection) await connection.close();
  }

  async function register(runner: Runner, generation: number, connection: McpConnection): Promise<void> {
    const name = runner.state.name;
    emit({ phase: 'discover', server: name });
    const tools = await connection.listTools();
    if (generation !== runner.generation) return;
    const changes = options.pinning.review(name, tools);
    if (changes.length > 0) emit({ phase: 'drift', server: name, tools: changes.length });
    const onCallError = (error: unknown) => {
      // The sign-in was refused mid-session (a refresh the server would not take): same state as at connect.
      if (isFermixError(error) && error.code === 'needs_auth' && generation === runner.generation) void signedOut(runner, error);
    };
    const caps = buildToolCapabilities({
      server: name,
      config: runner.config,
      tools,
      registry: options.registry,
      pinning: options.pinning,
      call: (tool, args, signal) => {
        if (!runner.connection) return Promise.reject(new Error(`the MCP server ${name} is not connected`));
        return runner.connection.callTool(tool, args, { signal, onError: onCallError });
      },
      onCollision: (tool, registered) => emit({ phase: 'name_collision', server: name, tool, name: registered }),
    });
    options.registry.replace_kind('mcp', { ...OPERATOR_FAMILY, mcp_server: name }, caps);
    runner.definitions = tools;
    runner.state.tools = caps.map((cap) => cap.name);
    runner.state.changed_tools = changes.map((change) => change.tool);
  }

  function scheduleRetry(runner: Runner, generation: number, error: unknown): void {
    runner.failures += 1;
    runner.state.attempts = runner.failures;
    runner.state.last_error = message(error);
    unregister(runner.state.name);
    runner.state.tools = [];
    // Retrying cannot help a server that waits for the person to sign in: it stays put until they do
    // (`fermix mcp auth login NAME` restarts it once the tokens are stored).
    if (isFermixError(error) && error.code === 'needs_auth') {
      setStatus(runner, 'needs_auth');
      emit({ phase: 'needs_auth', server: runner.state.name, error: runner.state.last_error });
      return;
    }
    if (runner.failures >= backoff.attempts) {
      setStatus(runner, 'quarantined');
      emit({ phase: 'quarantine', server: runner.state.name, attempt: runner.failures, error: runner.state.last_error });
      return;
    }
    runner.state.status = 'retrying';
    const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (runner.failures - 1));
    runner.timer = setTimeout(() => {
      runner.timer = null;
      if (generation === runner.generation) void attempt(runner, generation);
    }, delay);
  }

  async function attempt(runner: Runner, generation: number): Promise<void> {
    if (closed || generation !== runner.generation) return;
    const name = runner.state.name;
    if (runner.state.status !== 'retrying') setStatus(runner, 'connecting');
    emit({ phase: 'initialize', server: name, attempt: runner.failures + 1 });
    const remote = runner.state.remote;
    let transport: Transport | undefined;
    // A close during connect/discovery is that attempt's failure (the catch below), not a blip.
    let established = false;
    const connection = createMcpConnection({
      label: `The MCP server ${name}`,
      timeoutMs: runner.config.timeout_ms,
      limits: remote ? REMOTE_LIMITS : LOCAL_LIMITS,
      transport: () => transport!,
      onToolsChanged: () => {
        if (generation !== runner.generation || runner.connection !== connection) return;
        runner.sync = runner.sync.then(() => register(runner, generation, connection)).catch((error) => {
          runner.state.last_error = message(error);
        });
      },
      onClosed: () => {
        if (!established || generation !== runner.generation || runner.connection !== connection) return;
        emit({ phase: 'owner_down', server: name });
        runner.connection = null;
        runner.state.pid = null;
        unregister(name);
        runner.state.tools = [];
        const stable = runner.state.status === 'ready' && Date.now() - runner.readyAt >= backoff.stableMs;
        if (stable) runner.failures = 0;
        runner.state.last_error = 'the connection closed';
        emit({ phase: 'reconnect', server: name });
        if (runner.failures + 1 >= backoff.attempts) return scheduleRetry(runner, generation, new Error('the connection closed'));
        runner.failures += 1;
        runner.state.attempts = runner.failures;
        setStatus(runner, 'connecting');
        void attempt(runner, generation);
      },
    });
    try {
      transport = await options.openTransport(name, runner.config);
      runner.connection = connection;
      await connection.connect();
      runner.state.pid = (transport as { pid?: number | null }).pid ?? null;
      if (generation !== runner.generation) return void (await connection.close());
      await register(runner, generation, connection);
      if (generation !== runner.generation) return;
      runner.readyAt = Date.now();
      established = true;
      runner.state.last_error = null;
      setStatus(runner, 'ready');
      emit({ phase: 'ready', server: name, tools: runner.state.tools.length });
    } catch (error) {
      if (runner.connection === connection) runner.connection = null;
      await connection.close().catch(() => {});
      if (transport && runner.connection === null) await transport.close().catch(() => {});
      runner.state.pid = null;
      if (generation !== runner.generation) return;
      scheduleRetry(runner, generation, error);
    }
  }

  async function stopRunner(runner: Runner): Promise<void> {
    runner.generation += 1;
    if (runner.timer) clearTimeout(runner.timer);
    runner.timer = null;
    emit({ phase: 'teardown', server: runner.state.name });
    unregister(runner.state.name);
    runner.state.tools = [];
    await teardown(runner);
  }

  /** Status and registry change before the failed call's error reaches its caller; the connection closes after. */
  async function signedOut(runner: Runner, error: unknown): Promise<void> {
    const stopped = stopRunner(runner);
    runner.state.last_error = message(error);
    setStatus(runner, 'needs_auth');
    emit({ phase: 'needs_auth', server: runner.state.name, error: runner.state.last_error });
    await stopped;
  }

  /** Synchronous status (a caller reading `list()` right after sees it), then the old connection goes, then an attempt. */
  function restartRunner(runner: Runner): void {
    const stopped = stopRunner(runner);
    runner.failures = 0;
    runner.state.attempts = 0;
    runner.state.last_error = null;
    if (!runner.config.enabled) return setStatus(runner, 'disabled');
    setStatus(runner, 'connecting');
    const generation = runner.generation;
    void stopped.then(() => attempt(runner, generation));
  }

  function create(name: string, config: McpServerConfig): Runner {
    const transport = transportOf(config);
    const runner: Runner = {
      config,
      key: keyOf(config),
      state: { name, transport, remote: transport === 'streamable_http', status: 'connecting', tools: [], last_error: null, attempts: 0, pid: null, changed_tools: [] },
      generation: 0,
      connection: null,
      readyAt: 0,
      failures: 0,
      timer: null,
      definitions: [],
      sync: Promise.resolve(),
      idle: Promise.resolve(),
      markIdle: () => {},
      idleDone: true,
    };
    newIdle(runner);
    return runner;
  }

  return {
    apply(servers) {
      for (const [name, runner] of runners) {
        if (servers[name] === undefined) {
          runners.delete(name);
          options.pinning.forget(name);
          void stopRunner(runner);
        }
      }
      for (const [name, config] of Object.entries(servers)) {
        const existing = runners.get(name);
        if (existing && existing.key === keyOf(config)) continue;
        const runner = existing ?? create(name, config);
        runners.set(name, runner);
        runner.config = config;
        runner.key = keyOf(config);
        restartRunner(runner);
      }
    },
    restart(name) {
      const runner = runners.get(name);
      if (!runner) return false;
      restartRunner(runner);
      return true;
    },
    list: () => [...runners.values()].map((runner) => ({ ...runner.state, tools: [...runner.state.tools], changed_tools: options.pinning.changes(runner.state.name).map((change) => change.tool) })),
    get(name) {
      const runner = runners.get(name);
      return runner ? { ...runner.state, tools: [...runner.state.tools], changed_tools: options.pinning.changes(name).map((change) => change.tool) } : undefined;
    },
    definitions: (name) => [...(runners.get(name)?.definitions ?? [])],
    config: (name) => runners.get(name)?.config,
    async settled(name) {
      for (;;) {
        const pending = [...runners.values()].filter((runner) => (name === undefined || runner.state.name === name) && (runner.state.status === 'connecting' || runner.state.status === 'retrying'));
        if (pending.length === 0) return;
        await Promise.all(pending.map((runner) => runner.idle));
      }
    },
    async close() {
      closed = true;
      await Promise.all([...runners.values()].map((runner) => stopRunner(runner)));
      runners.clear();
    },
  };
}
