/**
 * The audit record: one per invocation, denials included, written before anything runs when the call
 * is refused (ARCHITECTURE.md §4 "Audit"). Arguments are recorded per the capability's audit_behavior:
 * - full: as given;
 * - redact_args: secret-shaped values and secret fields replaced by "[REDACTED]";
 * - metadata_only: only the argument names and their sizes.
 * The store (node) persists records through the AuditSink interface.
 */
import type { AuditBehavior, Capability, CapabilityKind, Origin, PolicyClass, Trust } from './capability.js';
import { utf8Length } from './runtime.js';
import { redactSecrets as redactSecretText } from '../redaction.js';

export const REDACTED = '[REDACTED]';

/** allow/deny come from the trust filter or the gate; `rejected` = refused before the gate (unknown name, bad arguments). */
export type AuditDecision = 'allow' | 'deny' | 'rejected';
export type ApprovalAnswer = 'once' | 'always' | 'deny';

export interface ArgsMetadata {
  keys: string[];
  /** UTF-8 bytes of each argument's JSON encoding. */
  sizes: Record<string, number>;
}

export interface AuditRecord {
  time: string;
  conversation_id: string | null;
  trust: Trust;
  origin: Origin;
  capability: string;
  kind: CapabilityKind | null;
  policy_class: PolicyClass | null;
  decision: AuditDecision;
  /** The rule or default that decided, e.g. `config: shell "git *" → allow` or `default: read_only → allow`. */
  rule: string | null;
  /** Set when a person answered an approval card for this call. */
  approval: ApprovalAnswer | null;
  args_mode: AuditBehavior;
  args: unknown;
  duration_ms: number;
  result_bytes: number;
  truncated: boolean;
  error_code: string | null;
  /** Facts the tool asked to keep (ToolResult.audit), or null. */
  notes: Record<string, string | number | boolean | null> | null;
}

export interface AuditSink {
  write(record: AuditRecord): void;
}

/** Argument names that hold secrets whatever the tool declares (matched case-insensitively, exactly). */
export const DEFAULT_SECRET_FIELDS: readonly string[] = [
  'password', 'passphrase', 'secret', 'client_secret', 'api_key', 'apikey', 'token', 'access_token',
  'refresh_token', 'authorization', 'private_key',
];

/** Secret-shaped text (API keys, tokens, JWTs, PEM blocks) → `[REDACTED:<kind>]`, the same rules as the logs. */
export function redactText(text: string): string {
  return redactSecretText(text);
}

/** Deep copy of `value` with secret-shaped strings and secret-named fields replaced. */
export function redactSecrets(value: unknown, secretFields: readonly string[] = []): unknown {
  const names = new Set([...DEFAULT_SECRET_FIELDS, ...secretFields].map((n) => n.toLowerCase()));
  const seen = new Set<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[CIRCULAR]';
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(v as Record<string, unknown>)) {
      out[key] = names.has(key.toLowerCase()) ? REDACTED : walk(inner);
    }
    return out;
  };
  return walk(value);
}

export function argsMetadata(args: Record<string, unknown>): ArgsMetadata {
  const keys = Object.keys(args);
  const sizes: Record<string, number> = {};
  for (const key of keys) sizes[key] = utf8Length(JSON.stringify(args[key]) ?? '');
  return { keys, sizes };
}

export function argsForAudit(behavior: AuditBehavior, args: Record<string, unknown>, secretFields: readonly string[] = []): unknown {
  if (behavior === 'metadata_only') return argsMetadata(args);
  if (behavior === 'redact_args') return redactSecrets(args, secretFields);
  return args;
}

export interface AuditInput {
  /** ms since the epoch */
  time: number;
  conversation_id?: string | null;
  trust: Trust;
  origin: Origin;
  /** The requested name (recorded even when no capability has it). */
  name: string;
  capability: Capability | undefined;
  decision: AuditDecision;
  rule?: string | null;
  approval?: ApprovalAnswer | null;
  args: Record<string, unknown>;
  duration_ms?: number;
  result_bytes?: number;
  truncated?: boolean;
  error_code?: string | null;
  notes?: Record<string, string | number | boolean | null> | null;
}

export function buildAuditRecord(input: AuditInput): AuditRecord {
  const cap = input.capability;
  // An unknown name has no declared behavior: redact, since the arguments came from a model.
  const mode: AuditBehavior = cap?.audit_behavior ?? 'redact_args';
  const secretFields = Array.isArray(cap?.metadata.secret_fields) ? cap.metadata.secret_fields : [];
  return {
    time: new Date(input.time).toISOString(),
    conversation_id: input.conversation_id ?? null,
    trust: input.trust,
    origin: input.origin,
    capability: input.name,
    kind: cap?.kind ?? null,
    policy_class: cap?.policy_class ?? null,
    decision: input.decision,
    rule: input.rule ?? null,
    approval: input.approval ?? null,
    args_mode: mode,
    args: argsForAudit(mode, input.args, secretFields),
    duration_ms: Math.max(0, Math.round(input.duration_ms ?? 0)),
    result_bytes: input.result_bytes ?? 0,
    truncated: input.truncated ?? false,
    error_code: input.error_code ?? null,
    notes: input.notes ?? null,
  };
}

/** For tests and for the daemon before the store is open. */
export function createMemoryAuditSink(): AuditSink & { records: AuditRecord[] } {
  const records: AuditRecord[] = [];
  return { records, write: (record) => void records.push(record) };
}
