import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { MEMORY_CATEGORIES, MIN_CONFIDENCE } from '../memory/admission.js';
import { memoryContextOf, memoryServiceOf } from '../memory/service.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export { MEMORY_CATEGORIES };

export const memoryStoreInput = lazySchema(() =>
  z.object({
    key: z.string().min(1).describe("Short unique key for the memory, e.g. 'timezone' or 'project_name'."),
    value: z.string().min(1).describe('The fact to remember.'),
    category: z
      .enum(MEMORY_CATEGORIES)
      .optional()
      .describe('identity, preference, interest or goal (kept in USER.md); context or directive (kept in MEMORY.md).'),
    scope: z
      .enum(['owner', 'agent', 'conversation'])
      .optional()
      .describe('Where the memory belongs; the admission pipeline decides when omitted (and in shared chats).'),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(`How sure you are the owner stated this (0-1, default 1); below ${MIN_CONFIDENCE} it is not stored.`),
  }),
);

const storeMemory: Executor = async (args, context) => {
  const outcome = memoryServiceOf(context).store(args, memoryContextOf(context));
  const { memory } = outcome;
  const text = outcome.stored
    ? `${outcome.action === 'update' ? 'Updated' : 'Stored'} memory "${memory.key}" (${memory.category}, scope ${memory.scope}).`
    : `Memory "${memory.key}" already holds that value (scope ${memory.scope}); nothing changed.`;
  return { text, data: outcome, audit: { action: outcome.action, scope: memory.scope.split(':')[0], category: memory.category } };
};

export const memoryStore = defineBuiltin({
  name: 'memory_store',
  description: 'Persist a memory candidate through the admission pipeline (validation, confidence, scope, de-duplication).',
  policy_class: 'read_write',
  category: 'memory',
  input: memoryStoreInput,
  when_to_use: 'Remember a durable fact or preference the owner stated, so later conversations can use it.',
  examples: [
    { args: { key: 'timezone', value: 'Europe/Lisbon', category: 'identity' }, note: 'remember a fact about the owner' },
  ],
  failure_modes: [
    { tag: 'missing_parameters', description: 'key or value is absent or blank' },
    { tag: 'missing_context', description: 'no conversation context is available' },
    { tag: 'store_failed', description: 'the admission pipeline refused the candidate (data.reason: invalid_category, low_confidence, guest_instruction, guest_correction) or the backend failed' },
  ],
  scope_requirements: ['memory:write'],
  // The value is the owner's personal data; the audit keeps the key, not the value.
  audit_behavior: 'redact_args',
  metadata: { secret_fields: ['value'] },
  executor: storeMemory,
});
