/**
 * For tests of this folder (not used by product code): the real pieces an agent service needs — a
 * home with config.toml, the SQLite store, the registry, gate, approval queue, invoker and event bus —
 * assembled the way the composition root does. `restart()` closes everything and opens it again on
 * the same home: a daemon restart without a process.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createApprovalQueue, createInvoker, createMemoryRuleStore, createPermissionGate, createRegistry,
  type ApprovalQueue, type AuditRecord, type Capability, type CapabilityRegistry, type Rule,
} from '../core/capabilities/index.js';
import type { EventEnvelope } from '../api/events.js';
import { createEventBus } from '../daemon/event-bus.js';
import { openDatabase, type Database } from '../store/database.js';
import { createAgentService, type AgentService, type AgentServiceDeps } from './agent-service.js';
import { createConfigReader } from './config-reader.js';
import type { SecretReader } from './providers/secrets.js';

export interface HarnessOptions {
  /** config.toml text. */
  config: string;
  /** Capabilities registered at every (re)start, in order. */
  capabilities: () => Capability[];
  rules?: Rule[];
  secrets?: SecretReader;
  overrides?: Partial<AgentServiceDeps>;
  home?: string;
}

export interface Harness {
  home: string;
  configFile: string;
  db: Database;
  registry: CapabilityRegistry;
  approvals: ApprovalQueue;
  audit: AuditRecord[];
  events: EventEnvelope[];
  agent: AgentService;
  bus: ReturnType<typeof createEventBus>;
  writeConfig(text: string): void;
  /** Events of one type on a stream (payloads). */
  eventsOf(type: string, stream?: string): any[];
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const envSecrets = (values: Record<string, string> = {}): SecretReader => ({
  keyring: () => null,
  env: (name) => values[name],
});

export async function createHarness(options: HarnessOptions): Promise<Harness> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'fermix-agent-'));
  const configFile = join(home, 'config.toml');
  writeFileSync(configFile, options.config);
  const audit: AuditRecord[] = [];
  const events: EventEnvelope[] = [];

  const open = () => {
    const db = openDatabase(join(home, 'fermix.db'), { ownsDaemonLock: true });
    const registry = createRegistry();
    for (const cap of options.capabilities()) registry.register(cap);
    const rules = createMemoryRuleStore(options.rules ?? []);
    const gate = createPermissionGate({ rules });
    const approvals = createApprovalQueue({ rules });
    const invoker = createInvoker({ registry, gate, approvals, audit: { write: (record) => void audit.push(record) } });
    const bus = createEventBus({ perStream: 5_000 });
    bus.subscribe((event) => void events.push(event));
    const agent = createAgentService({
      db,
      registry,
      invoker,
      approvals,
      events: bus,
      config: createConfigReader(configFile),
      services: () => ({ configFile }),
      secrets: options.secrets ?? envSecrets(),
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
      ...options.overrides,
    });
    return { db, registry, approvals, agent, bus };
  };

  let current = open();
  const harness: Harness = {
    home,
    configFile,
    get db() {
      return current.db;
    },
    get registry() {
      return current.registry;
    },
    get approvals() {
      return current.approvals;
    },
    get agent() {
      return current.agent;
    },
    get bus() {
      return current.bus;
    },
    audit,
    events,
    writeConfig: (text) => writeFileSync(configFile, text),
    eventsOf: (type, stream) => events.filter((e) => e.type === type && (stream === undefined || e.stream === stream)).map((e) => e.payload as any),
    async restart() {
      await current.agent.close();
      current.db.close();
      current = open();
    },
    async close() {
      await current.agent.close();
      current.db.close();
    },
  };
  return harness;
}

export function providerConfig(entries: { name: string; type: 'openai' | 'anthropic' | 'openai-compatible'; baseUrl: string; model?: string; primary?: boolean; keyEnv?: string }[], extra = ''): string {
  const blocks = entries.map((entry) => [
    `[providers.${entry.name}]`,
    `type = "${entry.type}"`,
    `base_url = "${entry.baseUrl}"`,
    `model = "${entry.model ?? 'fermix-test-model'}"`,
    ...(entry.primary ? ['primary = true'] : []),
    ...(entry.keyEnv ? [`api_key_env = "${entry.keyEnv}"`] : []),
    'timeout_ms = 20000',
  ].join('\n'));
  return `${extra}\n${blocks.join('\n\n')}\n`;
}

/** A capability for loop tests; the executor is given by the test. */
export function testTool(name: string, fields: Partial<Capability> & { run?: Capability['executor'] } = {}): Capability {
  const { run, ...rest } = fields;
  return {
    name,
    description: `Test tool ${name}.`,
    parameters: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: true },
    kind: 'builtin',
    hidden_from_agent: false,
    policy_class: 'read_only',
    group: 'fs',
    scope_requirements: [],
    audit_behavior: 'full',
    is_stateful: false,
    executor: run ?? (async (args) => ({ text: `${name} ran with ${JSON.stringify(args)}` })),
    ...rest,
    metadata: { category: 'file', ...rest.metadata },
  };
}

/** Polls until the predicate holds (events arrive asynchronously); fails after timeoutMs. */
export async function waitUntil(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}
