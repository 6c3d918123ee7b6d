import { z } from 'zod';
import { capabilityDocOutput, documentationExecutor } from './capability-doc.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export const toolHelpInput = lazySchema(() =>
  z.object({
    name: z.string().min(1).describe('Exact name of the capability to document, e.g. content_search.'),
  }),
);

export const toolHelp = defineBuiltin({
  name: 'tool_help',
  description: 'Return full documentation for one registered capability: parameters, examples and failure modes.',
  policy_class: 'read_only',
  category: 'system',
  input: toolHelpInput,
  output: capabilityDocOutput,
  when_to_use: 'You picked a likely tool and want its full parameters, examples and failure modes before calling it.',
  examples: [{ args: { name: 'content_search' }, note: 'expand the content_search docs' }],
  failure_modes: [
    { tag: 'unknown_capability', description: 'no capability with that name is registered; use tool_search' },
    { tag: 'missing_name', description: 'name is absent or blank' },
  ],
  executor: documentationExecutor('tool_help'),
});
