import type { Handlers } from '../api/dispatcher.js';
import type { CapabilityView } from '../api/methods/capabilities.js';
import type { Capability } from '../core/capabilities/capability.js';
import {
  roleReaches,
  createApprovalQueue,
  createInvoker,
  createPermissionGate,
  createRegistry,
  normalizeCapability,
  validateRole,
  type ApprovalQueue,
  type PermissionGate,
  type CapabilityRegistry,
  type Invoker,
} from '../core/capabilities/index.js';
import { FermixError } from '../core/errors.js';
import { isNetwork } from '../core/capabilities/derive.js';
import type { FermixConfig } from '../config/schema.js';
import { createConfigRuleStore } from '../config/rule-store.js';
import { auditToCsv, auditToJsonl, createAuditStore, type AuditStore } from '../store/audit-store.js';
import type { Database } from '../store/database.js';
import type { EventBus } from './event-bus.js';
import { SYSTEM_STREAM } from '../api/events.js';
import { isSimpleCommand } from '../sandbox/command-shape.js';
import { loadHardline } from '../sandbox/hardline.js';

export interface CapabilityServiceOptions {
  config: FermixConfig;
  configFile: string;
  db: Database;
  events: EventBus;
  /** The tools to register (the composition root decides which: deferral bridges only when deferral is on). */
  tools: readonly Capability[];
  /** Node services every executor may need (sandbox, net, …); the registry is added here. */
  services: Record<string, unknown>;
  computerUseReady?: () => boolean;
  /** The live `[permissions] mode` (re-read from config); default: the mode at start. */
  permissionMode?: () => FermixConfig['permissions']['mode'];
  onError?: (message: string, error: unknown) => void;
  /** Commands run without the OS jail here: auto mode and broad rules never approve them. */
  commandsUnjailed?: boolean;
}

export interface CapabilityService {
  registry: CapabilityRegistry;
  invoker: Invoker;
  approvals: ApprovalQueue;
  /** Executors' services, the registry included (what the agent loop passes to every call). */
  services: Record<string, unknown>;
  audit: AuditStore;
  handlers: Pick<Handlers, 'capabilities.list' | 'capabilities.inspect' | 'capabilities.call' | 'approvals.list' | 'approvals.answer' | 'audit.query' | 'audit.export' | 'roles.check'>;
}

const NOT_IMPLEMENTED_STATUS = 'not_implemented: this version of Fermix has no executor for this tool yet; calling it fails with not_implemented';

export function toView(cap: Capability): CapabilityView {
  const normalized = normalizeCapability(cap);
  return {
    ...normalized,
    metadata: normalized.metadata as Record<string, unknown>,
    category: normalized.metadata.category,
    status: normalized.has_executor ? 'ready' : NOT_IMPLEMENTED_STATUS,
  };
}

/** The registry, gate, approvals, audit and the one invoke boundary, plus their API handlers. */
export function createCapabilityService(options: CapabilityServiceOptions): CapabilityService {
  const { config, events } = options;
  const registry = createRegistry({ computerUseReady: options.computerUseReady, onListenerError: (error) => options.onError?.('registry listener failed', error) });
  for (const cap of options.tools) registry.register(cap);
  const rules = createConfigRuleStore(options.configFile);
  // The mode is read per decision, so a change from Settings applies to the next call.
  const currentMode = options.permissionMode ?? (() => config.permissions.mode);
  // One gate for the daemon's life (it keeps decisions that did not depend on the arguments); the mode
  // goes with each call.
  const decider = createPermissionGate({ rules, commandsUnjailed: options.commandsUnjailed });
  const gate: PermissionGate = {
    get mode() {
      return currentMode();
    },
    decide: (call) => decider.decide(call.mode === undefined ? { ...call, mode: currentMode() } : call),
  };
  // The card's `git status *` scope needs the shell parser; it loads just after start-up (as the sandbox
  // does, sandbox.ts), not on its path: loading it cost ~9 ms of main thread right before the daemon
  // answered. A card comes after a model turn, long after; a command check that comes first awaits it.
  setTimeout(() => void loadHardline(), 300).unref();
  const approvals = createApprovalQueue({ rules, simpleCommand: isSimpleCommand });
  approvals.subscribe((event) => {
    const stream = event.approval.conversation_id ?? SYSTEM_STREAM;
    if (event.type === 'requested') {
      events.emit(stream, 'approval.requested', { id: event.approval.id, capability: event.approval.capability, summary: event.approval.reason });
    } else {
      events.emit(stream, 'approval.resolved', { id: event.approval.id, answer: event.type === 'answered' ? event.answer : 'cancelled' });
    }
  });
  const audit = createAuditStore(options.db, { retentionDays: config.audit.retention_days, maxSizeMb: config.audit.max_size_mb });
  const invoker = createInvoker({ registry, gate, approvals, audit: audit.sink, onAuditError: (error) => options.onError?.('audit write failed', error) });
  const services = { ...options.services, registry };

  const find = (name: string) => {
    const cap = registry.find(name);
    if (!cap) {
      throw new FermixError({ code: 'unknown_capability', message: `No capability named "${name}".`, hint: 'Run `fermix capabilities list` to see what is registered.', data: { name } });
    }
    return cap;
  };

  const roles = () => Object.entries(config.roles).map(([name, role]) => validateRole({ name, tools: role.tools }));

  return {
    registry,
    invoker,
    approvals,
    services,
    audit,
    handlers: {
      'capabilities.list': (input) => {
        const filter = input.trust ? { kind: input.kind, trust: input.trust } : { kind: input.kind };
        return { capabilities: registry.list(filter).map(toView) };
      },
      'capabilities.inspect': (input) => toView(find(input.name)),
      'capabilities.call': async (input, context) => {
        const result = await invoker.execute(input.name, input.args, {
          trust: input.trust,
          origin: input.origin,
          cwd: input.cwd,
          conversationId: input.conversation_id,
          interactive: input.interactive,
          signal: context.signal,
          services,
        });
        return { text: result.text, data: result.data, images: result.images };
      },
      'approvals.list': () => ({ pending: approvals.list().map((pending) => ({ ...pending, args: pending.args })) }),
      'approvals.answer': (input) => {
        approvals.answer(input.id, input.answer, input.scope);
        return { ok: true as const };
      },
      'audit.query': (input) => ({ records: audit.query(input) }),
      'audit.export': (input) => {
        const records = audit.query(input);
        return { format: input.format, count: records.length, content: input.format === 'csv' ? auditToCsv(records) : auditToJsonl(records) };
      },
      'roles.check': () => ({
        roles: roles().map((role) => ({ name: role.name, groups: [...role.tools], capabilities: registry.list().filter((cap) => roleReaches(role, cap, isNetwork(cap))).map((cap) => cap.name) })),
      }),
    },
  };
}
