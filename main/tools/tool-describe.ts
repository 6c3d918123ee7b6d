import { z } from 'zod';
import { capabilityDocOutput, documentationExecutor } from './capability-doc.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export const toolDescribeInput = lazySchema(() =>
  z.object({
    name: z.string().min(1).describe('Exact tool name, from the Plugins list in the prompt or a tool_search result.'),
  }),
);

export const toolDescribe = defineBuiltin({
  name: 'tool_describe',
  description: "Fetch the full schema for one deferred tool by name, rendered like tool_help.",
  policy_class: 'read_only',
  category: 'system',
  input: toolDescribeInput,
  output: capabilityDocOutput,
  when_to_use: 'Before calling a deferred plugin or MCP tool whose parameters you do not know.',
  examples: [{ args: { name: 'gmail_search_messages' }, note: "load a deferred plugin tool's schema" }],
  failure_modes: [
    { tag: 'unknown_capability', description: 'no tool with that name is registered; check tool_search' },
    { tag: 'missing_name', description: 'name is absent or blank' },
  ],
  executor: documentationExecutor('tool_describe'),
  metadata: { deferral_bridge: true },
});
