/**
 * The real outbound-MCP stack for tests and the bench: a SQLite store in a temp dir, the registry, the
 * gate (a rule allowing mcp_*), the approval queue, the audit store, pinning, the supervisor and the one
 * invoke boundary — the same modules compose.ts wires, nothing faked. Servers are the SDK-built fixtures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApprovalQueue, createInvoker, createPermissionGate, createRegistry, type ApprovalQueue, type CapabilityRegistry, type Invoker } from '../core/capabilities/index.js';
import { createMemoryRuleStore, type Rule } from '../core/capabilities/rules.js';
import { createAuditStore, type AuditStore } from '../store/audit-store.js';
import { openDatabase, type Database } from '../store/database.js';
import { mcpServerSchema, type McpServerConfig } from './config.js';
import { createTransportOpener } from './launch.js';
import { createMcpOAuth, type McpOAuth } from './oauth-login.js';
import { createPinStore } from './pin-store.js';
import { createPinning, type Pinning } from './pinning.js';
import { createMcpSupervisor, type BackoffOptions, type LifecycleEvent, type McpSupervisor } from './supervisor.js';

export const FIXTURES = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'mcp-servers');
export const TOOLS_SERVER = join(FIXTURES, 'tools-server.mjs');
export const CRASH_SERVER = join(FIXTURES, 'crash-server.mjs');

export interface McpStack {
  dir: string;
  db: Database;
  registry: CapabilityRegistry;
  approvals: ApprovalQueue;
  audit: AuditStore;
  pinning: Pinning;
  supervisor: McpSupervisor;
  invoker: Invoker;
  events: LifecycleEvent[];
  stderr: Map<string, string[]>;
  /** The secret store (OAuth tokens land here). */
  secrets: Map<string, string>;
  oauth: McpOAuth;
  close(): Promise<void>;
}

/** A parsed `[mcp.servers.<name>]` table (defaults applied, as config.toml would give it). */
export function serverConfig(input: Record<string, unknown>): McpServerConfig {
  return mcpServerSchema.parse(input);
}

export function nodeServer(script: string, env: Record<string, string> = {}, extra: Record<string, unknown> = {}): McpServerConfig {
  return serverConfig({ command: process.execPath, args: [script], env, timeout_ms: 10_000, ...extra });
}

export function createMcpStack(options: { backoff?: Partial<BackoffOptions>; rules?: Rule[]; secrets?: Record<string, string> } = {}): McpStack {
  const dir = mkdtempSync(join(tmpdir(), 'fermix-mcp-'));
  const db = openDatabase(join(dir, 'fermix.db'), { ownsDaemonLock: true });
  const registry = createRegistry();
  const rules = createMemoryRuleStore(options.rules ?? [{ permission: 'mcp_*', action: 'allow', source: 'config' }]);
  const approvals = createApprovalQueue({ rules });
  const audit = createAuditStore(db, { retentionDays: 30 });
  const pinning = createPinning({ store: createPinStore(db), approvals, audit: audit.sink });
  const events: LifecycleEvent[] = [];
  const stderr = new Map<string, string[]>();
  const secrets = new Map(Object.entries(options.secrets ?? {}));
  const secretReader = { get: (name: string) => secrets.get(name) ?? null, set: (name: string, value: string) => void secrets.set(name, value), clear: (name: string) => secrets.delete(name) };
  const openTransport = createTransportOpener({
    sandboxEnv: () => ({ mode: 'allowlist', allow: [], deny: [], helpers: {} }),
    daemonEnv: process.env,
    secrets: secretReader,
    workspace: dir,
    onStderrLine: (server, line) => stderr.set(server, [...(stderr.get(server) ?? []), line]),
  });
  const supervisor = createMcpSupervisor({
    registry,
    pinning,
    backoff: { baseMs: 20, maxMs: 100, stableMs: 60_000, ...options.backoff },
    onEvent: (event) => events.push(event),
    openTransport,
  });
  const oauth = createMcpOAuth({ supervisor, secrets: secretReader, openTransport });
  const gate = createPermissionGate({ rules, mode: 'ask' });
  const invoker = createInvoker({ registry, gate, approvals, audit: audit.sink });
  return {
    dir, db, registry, approvals, audit, pinning, supervisor, invoker, events, stderr, secrets, oauth,
    async close() {
      oauth.close();
      await supervisor.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
