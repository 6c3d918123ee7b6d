import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const toolSearchInput = z.object({
  query: z.string().min(1).describe('What the tool should do, e.g. "create a github issue" or "search notion pages".'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(20)
    .default(5)
    .describe('Maximum matches to return (default 5; values outside 1-20 are clamped).'),
});

export const toolSearchOutput = z.object({
  query: z.string(),
  total_available: z.number().int().describe('Number of deferred tools searched.'),
  matches: z.array(
    z.object({
      name: z.string(),
      plugin: z.string().describe('"mcp" or the owning plugin name.'),
      description: z.string().max(400).describe('Tool description, cut at 400 characters.'),
    }),
  ),
});

export const toolSearch = defineBuiltin({
  name: 'tool_search',
  description:
    'Keyword search (BM25) over deferred plugin and MCP tool schemas by name, description and parameter names; returns matching tool names.',
  policy_class: 'read_only',
  category: 'system',
  input: toolSearchInput,
  output: toolSearchOutput,
  when_to_use: 'Find a deferred plugin or MCP tool by what it does when you do not know its name.',
  examples: [
    { args: { query: 'create a github issue' }, note: 'find the issue-creation tool' },
    { args: { query: 'calendar events next week', limit: 10 }, note: 'wider search' },
  ],
  failure_modes: [
    { tag: 'missing_query', description: 'query is absent or blank' },
    { tag: 'no_matches', description: 'nothing matched; try other words' },
  ],
  metadata: { deferral_bridge: true },
});
