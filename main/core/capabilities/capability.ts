/**
 * The capability: one entry in the one registry (seed 000 "Capability shape" + seed 004 "Capability metadata").
 * Environment-neutral: executors receive an ExecutionContext whose node-side services are injected.
 */
import type { CancellationView } from './runtime.js';

export const POLICY_CLASSES = ['read_only', 'read_write', 'exec', 'network', 'external_api', 'gui_control'] as const;
export type PolicyClass = (typeof POLICY_CLASSES)[number];

export const CAPABILITY_KINDS = ['builtin', 'skill', 'mcp'] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

export const TRUST_LEVELS = ['operator', 'guest'] as const;
export type Trust = (typeof TRUST_LEVELS)[number];

export const AUDIT_BEHAVIORS = ['full', 'redact_args', 'metadata_only'] as const;
export type AuditBehavior = (typeof AUDIT_BEHAVIORS)[number];

/** Where a call came from; recorded in the audit trail. */
export const ORIGINS = ['chat', 'cli', 'job', 'mcp-inbound', 'subagent', 'voice'] as const;
export type Origin = (typeof ORIGINS)[number];

/** A JSON Schema object (draft 2020-12 or draft-07 subset), passed to providers verbatim. */
export type JsonSchema = Record<string, unknown>;

export interface FailureMode {
  tag: string;
  description: string;
}

export interface CapabilityMetadata {
  category: string;
  when_to_use?: string;
  examples?: string[];
  failure_modes?: FailureMode[];
  requires_setup?: string;
  /** Set on plugin tools: the owning plugin's name. */
  plugin?: string;
  plugin_owned?: boolean;
  /** Set on MCP tools: the server name. */
  mcp_server?: string;
  /** Arguments named here are replaced by `[REDACTED]` in the audit under `redact_args`. */
  secret_fields?: string[];
  /** Starts processes through the sandbox runner: without the OS jail the gate treats it as unjailed (unjailed.ts). */
  runs_commands?: boolean;
  [key: string]: unknown;
}

/** What an executor receives besides its parsed arguments. */
export interface ExecutionContext {
  trust: Trust;
  origin: Origin;
  conversationId?: string;
  /** The agent turn making the call (absent outside a turn); hosted plugins count their per-turn budgets by it. */
  turnId?: string;
  /** Working directory hint (e.g. `fermix ask` passes the caller's cwd to the sandbox). */
  cwd?: string;
  /** False when nobody can answer a question during this call (a piped CLI, a job): tools that would ask refuse instead. */
  interactive?: boolean;
  signal: AbortSignal;
  /**
   * The same cancellation as `signal` for an executor that only listens for it (an MCP call hands it
   * to the SDK): the invoke boundary makes the AbortSignal only when `signal` is read (2–3 µs a call).
   */
  cancellation?: CancellationView;
  /** Node-side services (sandbox, store, …) injected by the composition root; typed by each tool. */
  services: Record<string, unknown>;
}

/** A tool result: text for the model (and people), optional images, optional structured data. */
export interface ToolResult {
  text: string;
  images?: { mimeType: string; base64: string }[];
  data?: unknown;
  /** Small, non-secret facts the audit trail should keep (e.g. web_search's `degraded`, `fallback_reason`). */
  audit?: Record<string, string | number | boolean | null>;
}

export type Executor = (args: Record<string, unknown>, context: ExecutionContext) => Promise<ToolResult>;

export interface Capability {
  name: string;
  description: string;
  parameters: JsonSchema;
  output_schema?: JsonSchema;
  kind: CapabilityKind;
  /** Absent means the tool has no executor yet: calling it fails with `not_implemented`. */
  executor?: Executor;
  hidden_from_agent: boolean;
  policy_class: PolicyClass;
  metadata: CapabilityMetadata;
  /** Voss fields. `is_mutating`/`is_network` are derived from policy_class unless set (see derive.ts). */
  is_mutating?: boolean;
  is_network?: boolean;
  group: string;
  scope_requirements: string[];
  audit_behavior: AuditBehavior;
  is_stateful: boolean;
  /** Per-call timeout for the invoke boundary; default 120 s. */
  timeout_ms?: number;
  /**
   * The executor only serializes its arguments and never changes them (an MCP call: the SDK writes them
   * to the server as JSON), so the invoke boundary hands them over without its private copy. Leave unset
   * for anything that might alter them: the copy is what keeps the audited arguments and the model's
   * history as they were.
   */
  passes_args_through?: boolean;
}
