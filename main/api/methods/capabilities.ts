import { z } from 'zod';
import { defineMethod } from '../define.js';
import { CAPABILITY_KINDS, ORIGINS, POLICY_CLASSES, TRUST_LEVELS, AUDIT_BEHAVIORS } from '../../core/capabilities/capability.js';

export const capabilityViewSchema = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  output_schema: z.record(z.string(), z.unknown()).nullable(),
  kind: z.enum(CAPABILITY_KINDS),
  has_executor: z.boolean(),
  status: z.string(),
  hidden_from_agent: z.boolean(),
  policy_class: z.enum(POLICY_CLASSES),
  metadata: z.record(z.string(), z.unknown()),
  category: z.string(),
  is_mutating: z.boolean(),
  is_network: z.boolean(),
  derived_from: z.object({ is_mutating: z.string(), is_network: z.string() }),
  group: z.string(),
  scope_requirements: z.array(z.string()),
  audit_behavior: z.enum(AUDIT_BEHAVIORS),
  is_stateful: z.boolean(),
  timeout_ms: z.number(),
});
export type CapabilityView = z.infer<typeof capabilityViewSchema>;

const ruleSchema = z.object({ permission: z.string(), pattern: z.string().optional(), action: z.string(), source: z.string(), unjailed: z.boolean().optional() });

const pendingApprovalSchema = z.object({
  id: z.string(),
  capability: z.string(),
  policy_class: z.string(),
  args: z.unknown(),
  reason: z.string(),
  always_covers: ruleSchema,
  /** Every scope "Always allow" offers (the default first), each the rule it saves and that rule in words. */
  scopes: z.array(z.object({ id: z.string(), rule: ruleSchema, words: z.string() })),
  /** The command runs without the OS jail; `warning` is the one line every surface shows. */
  unjailed: z.boolean(),
  warning: z.string().nullable(),
  origin: z.string().nullable(),
  conversation_id: z.string().nullable(),
  requested_at: z.string(),
});

const auditRecordSchema = z.object({
  id: z.number(),
  time: z.string(),
  conversation_id: z.string().nullable(),
  trust: z.string(),
  origin: z.string(),
  capability: z.string(),
  kind: z.string().nullable(),
  policy_class: z.string().nullable(),
  decision: z.string(),
  rule: z.string().nullable(),
  approval: z.string().nullable(),
  args_mode: z.string(),
  args: z.unknown(),
  duration_ms: z.number(),
  result_bytes: z.number(),
  truncated: z.boolean(),
  error_code: z.string().nullable(),
  notes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
});

const auditFilter = {
  since: z.iso.datetime({ offset: true }).optional(),
  capability: z.string().optional(),
  decision: z.enum(['allow', 'deny', 'rejected']).optional(),
  conversation_id: z.string().optional(),
  limit: z.number().int().min(1).max(100_000).default(1000),
};

export const capabilityMethods = {
  'capabilities.list': defineMethod({
    description: 'Every registered capability with its normalized metadata (internal view: no trust filter unless one is given).',
    input: z.object({ kind: z.enum([...CAPABILITY_KINDS, 'all']).default('all'), trust: z.enum(TRUST_LEVELS).optional() }).strict().default({ kind: 'all' }),
    output: z.object({ capabilities: z.array(capabilityViewSchema) }),
  }),
  'capabilities.inspect': defineMethod({
    description: 'The full normalized detail of one capability.',
    input: z.object({ name: z.string().min(1) }).strict(),
    output: capabilityViewSchema,
  }),
  'capabilities.call': defineMethod({
    description: 'Call a capability through the one invoke boundary (validated, gated, audited with origin cli).',
    input: z.object({
      name: z.string().min(1),
      args: z.record(z.string(), z.unknown()).default({}),
      trust: z.enum(TRUST_LEVELS).default('operator'),
      origin: z.enum(ORIGINS).default('cli'),
      cwd: z.string().optional(),
      /** Groups the call's approval cards (the CLI polls approvals.list for its own). */
      conversation_id: z.string().max(200).optional(),
      /** A CLI on a terminal can answer approval prompts itself; a piped one cannot. */
      interactive: z.boolean().default(false),
    }).strict(),
    output: z.object({ text: z.string(), data: z.unknown().optional(), images: z.array(z.object({ mimeType: z.string(), base64: z.string() })).optional() }),
  }),
  'approvals.list': defineMethod({
    description: 'Calls waiting for a person: what they do and exactly what an "always" answer would allow.',
    input: z.object({}).strict().default({}),
    output: z.object({ pending: z.array(pendingApprovalSchema) }),
  }),
  'approvals.answer': defineMethod({
    description: 'Answer a pending approval: once, always (stores the rule of the chosen scope; without scope the one shown in always_covers) or deny.',
    input: z.object({ id: z.string().min(1), answer: z.enum(['once', 'always', 'deny']), scope: z.string().min(1).max(40).optional() }).strict(),
    output: z.object({ ok: z.literal(true) }),
  }),
  'audit.query': defineMethod({
    description: 'Audit records, newest first, filtered.',
    input: z.object(auditFilter).strict().default({ limit: 1000 }),
    output: z.object({ records: z.array(auditRecordSchema) }),
  }),
  'audit.export': defineMethod({
    description: 'The audit trail as JSONL or CSV text, filtered like audit.query.',
    input: z.object({ ...auditFilter, format: z.enum(['jsonl', 'csv']) }).strict(),
    output: z.object({ format: z.enum(['jsonl', 'csv']), count: z.number(), content: z.string() }),
  }),
  'roles.check': defineMethod({
    description: 'Each configured role and the capabilities it reaches.',
    input: z.object({}).strict().default({}),
    output: z.object({ roles: z.array(z.object({ name: z.string(), groups: z.array(z.string()), capabilities: z.array(z.string()) })) }),
  }),
};
