import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { memoryServiceOf } from '../memory/service.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export const memorySourcesListInput = lazySchema(() =>
  z.object({
    status: z.string().optional().describe('Only sources with this status, e.g. active or removed.'),
    source_type: z.string().optional().describe('Only sources of this type, e.g. conversation or job.'),
  }),
);

const listSources: Executor = async (args, context) => {
  const sources = memoryServiceOf(context).sources({ status: args.status as string | undefined, source_type: args.source_type as string | undefined });
  const lines = sources.map((source) => `- ${source.source_type}${source.source_id ? ` ${source.source_id}` : ''}${source.title ? ` (${source.title})` : ''}: ${source.memories} memories, last written ${source.last_written}, ${source.status}`);
  return { text: lines.length > 0 ? lines.join('\n') : 'No memory sources yet: nothing has been stored.', data: { sources } };
};

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
  executor: listSources,
});
