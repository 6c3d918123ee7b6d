import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const memorySourcesListInput = z.object({
  status: z.string().optional().describe('Only sources with this status, e.g. active or removed.'),
  source_type: z.string().optional().describe('Only sources of this type, e.g. conversation or job.'),
});

export const memorySourcesList = defineBuiltin({
  name: 'memory_sources_list',
  description: 'List configured memory sources, including scheduled-job sources, with their provenance.',
  policy_class: 'read_only',
  category: 'memory',
  input: memorySourcesListInput,
  when_to_use: 'See where stored memories came from before reasoning about them.',
  examples: [{ args: { status: 'active' }, note: 'list active memory sources' }],
  failure_modes: [
    { tag: 'registry_failed', description: 'the memory-source query failed' },
    { tag: 'invalid_filter', description: 'status or source_type is not a valid filter' },
  ],
  scope_requirements: ['memory:read'],
});
