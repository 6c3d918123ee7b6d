import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const ROUTING_KEYS = ['subagent_provider', 'subagent_model', 'subagent_reasoning_effort'] as const;

export const modelRoutingConfigInput = z.object({
  action: z.enum(['read', 'set', 'delete']).describe('read the [fermix_core.routing] section, set one key, or delete one key.'),
  key: z
    .enum(ROUTING_KEYS)
    .optional()
    .describe('Routing key for set and delete. cron_* keys are shown by read but are set only in config.toml.'),
  value: z.string().min(1).optional().describe('New value for set: a provider name, a model id, or a reasoning effort such as low, medium or high.'),
});

export const modelRoutingConfig = defineBuiltin({
  name: 'model_routing_config',
  description: 'Read or update model routing config (provider, model, effort) for delegated sub-agents, in config.toml.',
  policy_class: 'read_write',
  category: 'config',
  input: modelRoutingConfigInput,
  when_to_use: 'Inspect or change which provider, model and reasoning effort subagents use.',
  examples: [
    { args: { action: 'read' }, note: 'show current routing' },
    { args: { action: 'set', key: 'subagent_model', value: 'gpt-5-mini' }, note: 'run subagents on a smaller model' },
  ],
  failure_modes: [
    { tag: 'invalid_action', description: 'action is not read, set or delete' },
    { tag: 'invalid_key', description: 'key is missing or not a supported routing key' },
    { tag: 'invalid_routing', description: 'the resulting provider/model pair is mis-matched or the provider is unknown' },
    { tag: 'write_failed', description: 'config.toml could not be written' },
  ],
  scope_requirements: ['config:read', 'config:write'],
  // Routing values are free text a model may fill with something it should not (a key pasted by mistake);
  // the audit keeps them scrubbed.
  audit_behavior: 'redact_args',
});
