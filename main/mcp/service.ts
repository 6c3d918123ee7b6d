/**
 * The daemon's MCP service: outbound supervision wired to the registry, pinning and per-server logs,
 * and the inbound backend shared by `/mcp` and `fermix mcp serve`. compose.ts builds one.
 * Servers start in the background: the daemon is ready before any MCP server is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalQueue } from '../core/capabilities/approvals.js';
import type { AuditSink } from '../core/capabilities/audit-record.js';
import type { Capability } from '../core/capabilities/capability.js';
import type { CapabilityRegistry } from '../core/capabilities/registry.js';
import type { Invoker } from '../core/capabilities/invoke.js';
import type { FermixConfig } from '../config/schema.js';
import type { Database } from '../store/database.js';
import { createLogger, type Logger } from '../daemon/logger.js';
import { secretRefName } from './config.js';
import { createInboundServer, exposedCapabilities, inboundDisabled, notExposed, toCallResult, toExposed, type ExposedTool } from './inbound.js';
import { createLoginPathResolver, createTransportOpener, type SecretReader } from './launch.js';
import { createMcpOAuth, type McpOAuth } from './oauth-login.js';
import { createPinStore, type PinStore } from './pin-store.js';
import { createPinning, type Pinning } from './pinning.js';
import { createMcpSupervisor, type BackoffOptions, type McpSupervisor } from './supervisor.js';
import { OPERATOR_FAMILY } from './tool-capabilities.js';

export interface McpServiceOptions {
  registry: CapabilityRegistry;
  invoker: Invoker;
  approvals: ApprovalQueue;
  audit: AuditSink;
  db: Database;
  /** The live config (re-read when config.toml changes). */
  config: () => FermixConfig;
  /** Executors' services for inbound calls. */
  services: () => Record<string, unknown>;
  secrets: () => SecretReader;
  logsDir: string;
  workspace: string;
  /** True inside the Electron app: a GUI launch has a bare PATH, so the login shell's is read once. */
  resolveLoginPath: boolean;
  logger: Logger;
  backoff?: Partial<BackoffOptions>;
}

export interface McpService {
  supervisor: McpSupervisor;
  /** Interactive OAuth sign-in/out of Streamable HTTP servers with `oauth = true`. */
  oauth: McpOAuth;
  pinning: Pinning;
  pins: PinStore;
  start(): void;
  /** Re-reads `[mcp.servers]` and starts/stops/restarts what changed. */
  reload(): void;
  logFile(name: string): string;
  exposed(): ExposedTool[];
  inboundTrust(): 'operator' | 'guest';
  /** The registered capability of one upstream tool of an operator server. */
  registeredTool(server: string, upstream: string): Capability | undefined;
  callExposed(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult>;
  http: {
    enabled(): boolean;
    authorize(request: IncomingMessage): boolean;
    handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void>;
  };
  close(): Promise<void>;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function createMcpService(options: McpServiceOptions): McpService {
  const logs = new Map<string, Logger>();
  const logFile = (name: string) => join(options.logsDir, 'mcp', `${name}.log`);
  const serverLog = (name: string): Logger => {
    let log = logs.get(name);
    // 10 MB × 5 files per server, like the daemon's own log; secrets redacted by the logger.
    if (!log) logs.set(name, (log = createLogger({ file: logFile(name), level: 'info' })));
    return log;
  };
  const pins = createPinStore(options.db);
  const pinning = createPinning({ store: pins, approvals: options.approvals, audit: options.audit });
  const loginPath = options.resolveLoginPath ? createLoginPathResolver() : undefined;
  const secrets: SecretReader = { get: (name) => options.secrets().get(name), set: (name, value) => options.secrets().set?.(name, value), clear: (name) => options.secrets().clear?.(name) ?? false };
  const openTransport = createTransportOpener({
    sandboxEnv: () => options.config().sandbox.env,
    daemonEnv: process.env,
    secrets,
    workspace: options.workspace,
    loginPath,
    onStderrLine: (server, line) => serverLog(server).info(line, { stream: 'stderr' }),
    onNote: (server, note) => serverLog(server).warn(note),
  });
  const supervisor = createMcpSupervisor({
    registry: options.registry,
    pinning,
    backoff: options.backoff,
    onEvent: (event) => {
      const { phase, server, ...rest } = event;
      serverLog(server).info(`lifecycle ${phase}`, rest);
      if (phase === 'quarantine' || phase === 'name_collision' || phase === 'drift' || phase === 'needs_auth') options.logger.warn(`mcp ${phase}`, { server, ...rest });
    },
    openTransport,
  });
  const oauth = createMcpOAuth({ supervisor, secrets, openTransport });

  const inbound = () => options.config().mcp.inbound;
  const exposed = () => exposedCapabilities(options.registry, inbound()).map(toExposed);

  async function callExposed(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const config = inbound();
    if (!config.enabled) return toCallResult({ error: inboundDisabled() });
    if (!exposedCapabilities(options.registry, config).some((cap) => cap.name === name)) return toCallResult({ error: notExposed(name) });
    try {
      const result = await options.invoker.execute(name, args, { trust: config.trust, origin: 'mcp-inbound', interactive: false, signal, services: options.services() });
      return toCallResult({ result });
    } catch (error) {
      return toCallResult({ error });
    }
  }

  return {
    supervisor,
    oauth,
    pinning,
    pins,
    start: () => supervisor.apply(options.config().mcp.servers),
    reload: () => supervisor.apply(options.config().mcp.servers),
    logFile,
    exposed,
    inboundTrust: () => inbound().trust,
    registeredTool: (server, upstream) => options.registry.list({ kind: 'mcp' }).find((cap) => cap.metadata.mcp_source === OPERATOR_FAMILY.mcp_source && cap.metadata.mcp_server === server && cap.metadata.mcp_tool === upstream),
    callExposed,
    http: {
      enabled: () => inbound().enabled,
      authorize(request) {
        const ref = inbound().auth_token_ref;
        const name = ref ? secretRefName(ref) : null;
        const header = request.headers.authorization;
        if (!name || !header?.startsWith('Bearer ')) return false;
        let token: string | null;
        try {
          token = options.secrets().get(name);
        } catch {
          return false;
        }
        return typeof token === 'string' && token.length > 0 && safeEqual(header.slice(7).trim(), token);
      },
      async handle(request, response, body) {
        // Stateless (no session id): one server and transport per request, so no state outlives it.
        // The SDK's HTTP transport (hono's node adapter) is loaded with the first /mcp request, not at start-up.
        const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
        const server = await createInboundServer({ list: exposed, call: (name, args, signal) => callExposed(name, args, signal) });
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        response.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(request, response, body);
      },
    },
    async close() {
      oauth.close();
      await supervisor.close();
      for (const log of logs.values()) log.close();
      logs.clear();
    },
  };
}

/** The last `lines` lines of a server's log (the rotated file only: older ones are .1 … .5). */
export function tailServerLog(file: string, lines: number): string[] {
  if (!existsSync(file)) return [];
  const all = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
  return all.slice(-lines);
}
