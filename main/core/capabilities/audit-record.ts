/**
 * The audit record: one per invocation, denials included, written before anything runs when the call
 * is refused (ARCHITECTURE.md §4 "Audit"). Arguments are recorded per the capability's audit_behavior:
 * - full: every argument, with secret-shaped text → `[REDACTED:<kind>]` and secret-named fields
 *   (password, api_key, the capability's metadata.secret_fields, …) → "[REDACTED]" — never raw (docs/decisions/0014);
 * - redact_args: the same (kept as a separate value: it is what unknown capabilities get);
 * - metadata_only: only the argument names and their sizes.
 * File bodies (content, old_string, new_string, metadata.audit_content_fields) and any string over
 * 4 KiB are recorded as {bytes, sha256, excerpt}; a record's arguments are capped at 16 KiB of JSON
 * (past that: a truncation marker, the original size and a redacted prefix). The store (node) persists
 * records through the AuditSink interface.
 */
import type { AuditBehavior, Capability, CapabilityKind, Origin, PolicyClass, Trust } from './capability.js';
import { utf8Length } from './runtime.js';
import { cannotHoldSecret, isSecretFieldName, redactSecrets as redactSecretText } from '../redaction.js';
import { sha256Hex } from '../sha256.js';

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

/** What is only known once a call has finished. */
export interface AuditOutcome {
  duration_ms: number;
  result_bytes?: number;
  truncated?: boolean;
  error_code?: string | null;
  notes?: Record<string, string | number | boolean | null> | null;
}

/** A record built before its call finished; nothing is written until `write` gives it its outcome. */
export interface PreparedAudit {
  write(outcome: AuditOutcome): void;
}

export interface AuditSink {
  write(record: AuditRecord): void;
  /**
   * Optional: does the work a record needs that does not depend on its outcome (serializing the
   * arguments, building the row) now, so the invoke boundary can do it while the call is in flight;
   * `write` on the handle then costs only the outcome. Writes nothing by itself.
   */
  prepare?(record: AuditRecord): PreparedAudit;
}

/** Argument names that hold secrets whatever the tool declares (matched case-insensitively, exactly). */
export const DEFAULT_SECRET_FIELDS: readonly string[] = [
  'password', 'passphrase', 'secret', 'client_secret', 'api_key', 'apikey', 'token', 'access_token',
  'refresh_token', 'authorization', 'private_key',
];

// Every call's record scans the same short strings again: the argument names, the deciding rule, the
// capability's own notes. Redaction is a pure function of the text, so a bounded memo of short inputs
// returns exactly what the scanner would, without scanning (bench/suites/mcp.ts, decision 0020).
const MEMO_MAX_CHARS = 256;
const MEMO_MAX_ENTRIES = 2048;
const redactionMemo = new Map<string, string>();

/** Secret-shaped text (API keys, tokens, JWTs, PEM blocks) → `[REDACTED:<kind>]`, the same rules as the logs. */
export function redactText(text: string): string {
  // Short plain text (most argument values) is known clean without the memo: no entry spent on it.
  if (cannotHoldSecret(text)) return text;
  if (text.length > MEMO_MAX_CHARS) return redactSecretText(text);
  const known = redactionMemo.get(text);
  if (known !== undefined) return known;
  const redacted = redactSecretText(text);
  // Cleared rather than evicted one by one: varied values (each call's own arguments) must not grow it.
  if (redactionMemo.size >= MEMO_MAX_ENTRIES) redactionMemo.clear();
  redactionMemo.set(text, redacted);
  return redacted;
}

/** Argument names whose value is a file body: recorded as size + sha256 + a redacted excerpt. */
export const DEFAULT_CONTENT_FIELDS: readonly string[] = ['content', 'old_string', 'new_string'];
/** The cap on one record's stored arguments (JSON, UTF-8). */
export const MAX_AUDIT_ARGS_BYTES = 16 * 1024;
/** Any string longer than this is digested even when its field is not a content field. */
export const MAX_AUDIT_STRING_CHARS = 4 * 1024;
const EXCERPT_CHARS = 160;
// Redacting this much past the excerpt's end lets a secret that straddles the cut be recognized whole
// (only a PEM block is longer, and an unterminated PEM block is redacted to the end of its body).
const EXCERPT_LOOKAHEAD = 1024;
// Hashing is ~9 ms per MiB in pure JS; past this a string is not hashed (a 31 MB `pad` must not stall the call).
const MAX_HASH_CHARS = 16 * 1024 * 1024;
const MAX_NAME_CHARS = 128;
const MAX_DEPTH = 20;

export interface ContentDigest {
  bytes: number;
  /** Of the UTF-8 bytes as given; null when the text is over 16 Mi characters. */
  sha256: string | null;
  /** The first 160 characters, secrets redacted, "…" when there is more. */
  excerpt: string;
}

export function digestContent(text: string): ContentDigest {
  const window = redactText(text.slice(0, EXCERPT_CHARS + EXCERPT_LOOKAHEAD));
  const excerpt = window.length > EXCERPT_CHARS || text.length > EXCERPT_CHARS + EXCERPT_LOOKAHEAD ? `${window.slice(0, EXCERPT_CHARS)}…` : window;
  return { bytes: utf8Length(text), sha256: text.length <= MAX_HASH_CHARS ? sha256Hex(text) : null, excerpt };
}

const NO_FIELDS: readonly string[] = [];
// A capability's field lists are the same arrays on every call: their lookup sets are built once per array.
// A copy of the array is kept with its set, so an array changed in place is never served a stale set.
interface CachedSet<T> {
  fields: string[];
  value: T;
}
const secretNameSets = new WeakMap<readonly string[], CachedSet<ReadonlySet<string>>>();
const fieldSets = new WeakMap<readonly string[], CachedSet<ReadonlySet<string>>>();
const contentFieldLists = new WeakMap<readonly unknown[], CachedSet<readonly string[]>>();

function sameFields(kept: readonly string[], key: readonly unknown[]): boolean {
  if (kept.length !== key.length) return false;
  for (let index = 0; index < kept.length; index += 1) if (kept[index] !== key[index]) return false;
  return true;
}

function cached<K extends readonly unknown[], T>(cache: WeakMap<K, CachedSet<T>>, key: K, build: (key: K) => T): T {
  const hit = cache.get(key);
  if (hit !== undefined && sameFields(hit.fields, key)) return hit.value;
  const value = build(key);
  cache.set(key, { fields: key.map(String), value });
  return value;
}

// Module-level builders, and the usual lists' sets made once: no closure or lookup per record for them.
const buildSecretNameSet = (secretFields: readonly string[]): ReadonlySet<string> => new Set([...DEFAULT_SECRET_FIELDS, ...secretFields].map((n) => n.toLowerCase()));
const buildFieldSet = (fields: readonly string[]): ReadonlySet<string> => new Set(fields);
const DEFAULT_SECRET_NAMES = buildSecretNameSet([]);

function secretNameSet(secretFields: readonly string[]): ReadonlySet<string> {
  return secretFields.length === 0 ? DEFAULT_SECRET_NAMES : cached(secretNameSets, secretFields, buildSecretNameSet);
}

function fieldSet(fields: readonly string[]): ReadonlySet<string> {
  return cached(fieldSets, fields, buildFieldSet);
}

/**
 * Deep copy of `value` with secret-shaped strings and secret-named fields replaced; with `contentFields`,
 * the strings under those names (and every over-long string) become a ContentDigest.
 */
export function redactSecrets(value: unknown, secretFields: readonly string[] = NO_FIELDS, contentFields: readonly string[] = NO_FIELDS): unknown {
  return redactWalk({ names: secretNameSet(secretFields), bodies: fieldSet(contentFields), root: undefined, seen: undefined }, value, null, 0);
}

interface RedactionWalk {
  names: ReadonlySet<string>;
  bodies: ReadonlySet<string>;
  /** The first object walked, and every object below it: a set only once there is one (most arguments are flat). */
  root: object | undefined;
  seen: Set<object> | undefined;
}

// A module-level function rather than a closure per record: this runs for every audited call.
function redactWalk(walk: RedactionWalk, v: unknown, key: string | null, depth: number): unknown {
  if (typeof v === 'string') return (key !== null && walk.bodies.has(key)) || (walk.bodies.size > 0 && v.length > MAX_AUDIT_STRING_CHARS) ? digestContent(v) : redactText(v);
  if (v === null || typeof v !== 'object') return v;
  if (v === walk.root || walk.seen?.has(v) === true) return '[CIRCULAR]';
  if (depth >= MAX_DEPTH) return '[TRUNCATED]';
  if (walk.root === undefined) walk.root = v;
  else (walk.seen ??= new Set<object>()).add(v);
  if (Array.isArray(v)) return v.map((item) => redactWalk(walk, item, null, depth + 1));
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(v)) {
    const inner = (v as Record<string, unknown>)[name];
    const secret = walk.names.has(name.toLowerCase()) || (isSecretFieldName(name) && inner !== null && typeof inner !== 'boolean');
    out[redactText(name)] = secret ? REDACTED : redactWalk(walk, inner, name, depth + 1);
  }
  return out;
}

export function argsMetadata(args: Record<string, unknown>): ArgsMetadata {
  const keys = Object.keys(args);
  const sizes: Record<string, number> = {};
  for (const key of keys) sizes[redactText(key)] = utf8Length(JSON.stringify(args[key]) ?? '');
  return { keys: keys.map(redactText), sizes };
}

export interface TruncatedArgs {
  truncated: true;
  /** UTF-8 bytes of the arguments' JSON as the caller sent them. */
  original_bytes: number;
  keys: string[];
  sizes: Record<string, number>;
  /** The start of the redacted arguments' JSON (redacted before it was cut, so no secret is half-kept). */
  preview: string;
}

// capArgs must serialize the recorded arguments to measure them; the store writes that same JSON to its
// journal line and row instead of serializing them twice more. One slot, for the recorded (fresh) object
// of the record built last: the boundary hands each record to the store as soon as it is built. (A
// WeakMap entry per record cost more than the slot saves: ephemerons for the collector to trace.)
let lastRecorded: object | undefined;
let lastRecordedJson = '';

/** The JSON of a record's `args`: the one capArgs built for the record made last, or built now. */
export function recordedArgsJson(args: unknown): string {
  if (args !== undefined && args === lastRecorded) return lastRecordedJson;
  return JSON.stringify(args ?? null) ?? 'null';
}

/** Keeps a record's arguments under MAX_AUDIT_ARGS_BYTES. `recorded` is already redacted. */
export function capArgs(recorded: unknown, original: Record<string, unknown>, maxBytes = MAX_AUDIT_ARGS_BYTES): unknown {
  const json = JSON.stringify(recorded) ?? 'null';
  // A UTF-16 unit is at most 3 bytes of UTF-8, so short JSON needs no byte count.
  if (json.length * 3 <= maxBytes || utf8Length(json) <= maxBytes) {
    if (recorded !== null && typeof recorded === 'object') {
      lastRecorded = recorded;
      lastRecordedJson = json;
    }
    return recorded;
  }
  const meta = argsMetadata(original);
  const keys = meta.keys.slice(0, 64);
  const sizes: Record<string, number> = {};
  for (const key of keys) sizes[key.slice(0, MAX_NAME_CHARS)] = meta.sizes[key] ?? 0;
  const fixed = JSON.stringify({ truncated: true, original_bytes: 0, keys, sizes, preview: '' });
  // Characters of preview ≤ its UTF-8 bytes; the 64-byte margin covers JSON escaping of the cut and the number.
  let preview = json.slice(0, Math.max(0, Math.floor((maxBytes - utf8Length(fixed) - 64) / 3)));
  const last = preview.charCodeAt(preview.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) preview = preview.slice(0, -1);
  return { truncated: true, original_bytes: utf8Length(JSON.stringify(original) ?? ''), keys, sizes, preview } satisfies TruncatedArgs;
}

export function argsForAudit(behavior: AuditBehavior, args: Record<string, unknown>, secretFields: readonly string[] = NO_FIELDS, contentFields: readonly string[] = DEFAULT_CONTENT_FIELDS): unknown {
  const recorded = behavior === 'metadata_only' ? argsMetadata(args) : redactSecrets(args, secretFields, contentFields);
  return capArgs(recorded, args);
}

function redactNotes(notes: Record<string, string | number | boolean | null> | null | undefined): Record<string, string | number | boolean | null> | null {
  if (notes === null || notes === undefined) return null;
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(notes)) out[redactText(key)] = typeof value === 'string' ? redactText(value.slice(0, MAX_AUDIT_STRING_CHARS)) : value;
  return out;
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

// Calls come many to a millisecond on a busy path: the last conversion is kept.
let lastTime = Number.NaN;
let lastIso = '';
function isoTime(ms: number): string {
  if (ms !== lastTime) {
    lastIso = new Date(ms).toISOString();
    lastTime = ms;
  }
  return lastIso;
}

const buildContentFields = (extra: readonly unknown[]): readonly string[] => [...DEFAULT_CONTENT_FIELDS, ...extra.filter((f): f is string => typeof f === 'string')];

export function buildAuditRecord(input: AuditInput): AuditRecord {
  const cap = input.capability;
  // An unknown name has no declared behavior: redact, since the arguments came from a model.
  const mode: AuditBehavior = cap?.audit_behavior ?? 'redact_args';
  const secretFields = Array.isArray(cap?.metadata.secret_fields) ? cap.metadata.secret_fields : NO_FIELDS;
  const extraContent = cap?.metadata.audit_content_fields;
  const contentFields = Array.isArray(extraContent)
    ? cached(contentFieldLists, extraContent as readonly unknown[], buildContentFields)
    : DEFAULT_CONTENT_FIELDS;
  return {
    time: isoTime(input.time),
    conversation_id: input.conversation_id ?? null,
    trust: input.trust,
    origin: input.origin,
    // The requested name comes from the model: it may be anything, of any length.
    capability: cap?.name ?? redactText(input.name.slice(0, MAX_NAME_CHARS)),
    kind: cap?.kind ?? null,
    policy_class: cap?.policy_class ?? null,
    decision: input.decision,
    rule: input.rule === null || input.rule === undefined ? null : redactText(input.rule),
    approval: input.approval ?? null,
    args_mode: mode,
    args: argsForAudit(mode, input.args, secretFields, contentFields),
    duration_ms: Math.max(0, Math.round(input.duration_ms ?? 0)),
    result_bytes: input.result_bytes ?? 0,
    truncated: input.truncated ?? false,
    error_code: input.error_code ?? null,
    notes: redactNotes(input.notes),
  };
}

/** A call's outcome as its record keeps it: whole milliseconds, defaults filled in, notes redacted. */
export function outcomeFields(outcome: AuditOutcome): Pick<AuditRecord, 'duration_ms' | 'result_bytes' | 'truncated' | 'error_code' | 'notes'> {
  return {
    duration_ms: Math.max(0, Math.round(outcome.duration_ms)),
    result_bytes: outcome.result_bytes ?? 0,
    truncated: outcome.truncated ?? false,
    error_code: outcome.error_code ?? null,
    notes: redactNotes(outcome.notes),
  };
}

/** The record with its outcome, exactly as buildAuditRecord makes those fields (rounded, redacted). */
export function withOutcome(record: AuditRecord, outcome: AuditOutcome): AuditRecord {
  return { ...record, ...outcomeFields(outcome) };
}

/** The sink's own preparation when it has one, else a handle that writes the completed record. */
export function prepareAudit(sink: AuditSink, record: AuditRecord): PreparedAudit {
  return sink.prepare?.(record) ?? { write: (outcome) => sink.write(withOutcome(record, outcome)) };
}

/**
 * Re-applies the redaction to a record read back from the store, for queries and exports: rows written
 * before records were redacted (or by an older scanner) must not leave through `fermix audit` or an
 * export. Idempotent on records this module built, and it keeps their shape (digests, truncation markers).
 */
export function scrubStoredRecord<T extends AuditRecord>(record: T): T {
  return {
    ...record,
    capability: redactText(record.capability.slice(0, MAX_NAME_CHARS)),
    rule: record.rule === null ? null : redactText(record.rule),
    args: redactSecrets(record.args),
    notes: redactNotes(record.notes),
  };
}

/** For tests and for the daemon before the store is open. */
export function createMemoryAuditSink(): AuditSink & { records: AuditRecord[] } {
  const records: AuditRecord[] = [];
  return { records, write: (record) => void records.push(record) };
}
