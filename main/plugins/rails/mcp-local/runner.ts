/**
 * Supervision of one plugin-owned MCP connection, as for operator servers (main/mcp/supervisor.ts):
 * an attempt is open → connect/initialize → discover → register. A failed attempt closes the transport
 * (the stdio transport kills the whole process group) and waits an exponential backoff; after
 * `attempts` failures in a row the runner is quarantined — tools unregistered, last error kept — until
 * the plugin is reloaded with a changed config, restarted, or the daemon restarts. A drop after ready
 * reconnects; a drop within `stableMs` of ready counts as a failure, so a server that crashes on its
 * first call still ends in quarantine. The hosted rail passes `retryable` so only unreachability is
 * retried there; anything else stops at once with its own status. Runners share nothing, so one
 * crashing plugin never disturbs another.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isFermixError } from '../../../core/errors.js';
import { createMcpConnection, type McpConnection, type McpLimits, type McpToolDefinition } from '../../../mcp/client.js';

export type RunnerStatus = 'connecting' | 'ready' | 'retrying' | 'quarantined' | 'stopped' | (string & {});

export interface RunnerBackoff {
  baseMs: number;
  maxMs: number;
  attempts: number;
  stableMs: number;
}

export const LOCAL_BACKOFF: RunnerBackoff = { baseMs: 1_000, maxMs: 30_000, attempts: 5, stableMs: 30_000 };

export interface RunnerOptions {
  label: string;
  open: () => Promise<Transport>;
  timeoutMs: number;
  limits: McpLimits;
  backoff: RunnerBackoff;
  /** Registers the discovered tools; returns the registered names. Throws to fail the attempt. */
  register: (tools: McpToolDefinition[], connection: McpConnection) => string[];
  unregister: () => void;
  /** A failure that is not retryable ends the runner at once in the status it names (hosted rail). */
  classify?: (error: unknown) => { retry: true } | { retry: false; status: string };
  onEvent?: (event: { phase: string; attempt?: number; error?: string }) => void;
}

export interface RunnerState {
  status: RunnerStatus;
  tools: string[];
  last_error: string | null;
  /** The error's Fermix code, when it had one (upstream_contract_mismatch, remote_unreachable…). */
  last_code: string | null;
  attempts: number;
  pid: number | null;
}

export interface McpPluginRunner {
  state(): RunnerState;
  connection(): McpConnection | null;
  restart(): void;
  stop(): Promise<void>;
  /** Resolves when the runner is ready or has stopped trying. */
  settled(): Promise<void>;
}

const text = (error: unknown) => (isFermixError(error) ? error.message : (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 500) || 'unknown error');

export function createMcpPluginRunner(options: RunnerOptions): McpPluginRunner {
  const state: RunnerState = { status: 'connecting', tools: [], last_error: null, last_code: null, attempts: 0, pid: null };
  let generation = 0;
  let current: McpConnection | null = null;
  let timer: NodeJS.Timeout | null = null;
  let readyAt = 0;
  let waiters: Array<() => void> = [];
  const busy = () => state.status === 'connecting' || state.status === 'retrying';
  const wake = () => {
    if (busy()) return;
    const pending = waiters;
    waiters = [];
    for (const resolve of pending) resolve();
  };
  const drop = () => {
    options.unregister();
    state.tools = [];
  };

  function fail(gen: number, error: unknown): void {
    if (gen !== generation) return;
    state.attempts += 1;
    state.last_error = text(error);
    state.last_code = isFermixError(error) ? error.code : null;
    drop();
    const verdict = options.classify?.(error) ?? { retry: true as const };
    if (!verdict.retry) {
      state.status = verdict.status;
      options.onEvent?.({ phase: 'stopped', attempt: state.attempts, error: state.last_error });
      return wake();
    }
    if (state.attempts >= options.backoff.attempts) {
      state.status = 'quarantined';
      options.onEvent?.({ phase: 'quarantine', attempt: state.attempts, error: state.last_error });
      return wake();
    }
    state.status = 'retrying';
    const delay = Math.min(options.backoff.maxMs, options.backoff.baseMs * 2 ** (state.attempts - 1));
    timer = setTimeout(() => {
      timer = null;
      void attempt(gen);
    }, delay);
  }

  async function attempt(gen: number): Promise<void> {
    if (gen !== generation) return;
    options.onEvent?.({ phase: 'initialize', attempt: state.attempts + 1 });
    let transport: Transport | undefined;
    let established = false;
    const connection = createMcpConnection({
      label: options.label,
      timeoutMs: options.timeoutMs,
      limits: options.limits,
      transport: () => transport!,
      onClosed: () => {
        if (!established || gen !== generation || current !== connection) return;
        options.onEvent?.({ phase: 'owner_down' });
        current = null;
        state.pid = null;
        const stable = Date.now() - readyAt >= options.backoff.stableMs;
        if (stable) state.attempts = 0;
        state.status = 'retrying';
        fail(gen, new Error('the connection closed'));
      },
    });
    try {
      transport = await options.open();
      current = connection;
      await connection.connect();
      if (gen !== generation) return void (await connection.close());
      state.pid = (transport as { pid?: number | null }).pid ?? null;
      const tools = await connection.listTools();
      if (gen !== generation) return void (await connection.close());
      state.tools = options.register(tools, connection);
      readyAt = Date.now();
      established = true;
      state.last_error = null;
      state.last_code = null;
      state.status = 'ready';
      options.onEvent?.({ phase: 'ready' });
      wake();
    } catch (error) {
      if (current === connection) current = null;
      await connection.close().catch(() => {});
      if (transport) await transport.close().catch(() => {});
      state.pid = null;
      fail(gen, error);
    }
  }

  function start(): void {
    generation += 1;
    if (timer) clearTimeout(timer);
    timer = null;
    const old = current;
    current = null;
    drop();
    Object.assign(state, { status: 'connecting', last_error: null, last_code: null, attempts: 0, pid: null });
    const gen = generation;
    void (old ? old.close().catch(() => {}) : Promise.resolve()).then(() => attempt(gen));
  }

  start();
  return {
    state: () => ({ ...state, tools: [...state.tools] }),
    connection: () => current,
    restart: start,
    async stop() {
      generation += 1;
      if (timer) clearTimeout(timer);
      timer = null;
      drop();
      state.status = 'stopped';
      state.pid = null;
      const old = current;
      current = null;
      wake();
      await old?.close().catch(() => {});
    },
    settled: () => (busy() ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
  };
}
