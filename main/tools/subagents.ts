import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const subagentsInput = z.object({
  tasks: z
    .array(
      z.object({
        id: z.string().min(1).describe('Caller-chosen id, unique within this call, echoed in the result.'),
        task: z.string().min(1).describe('What to accomplish (a goal, not a list of tools to call).'),
        context: z.string().optional().describe('Context for this task only.'),
      }),
    )
    .min(1)
    .max(8)
    .describe('Independent assignments, 1-8, one subagent each.'),
  shared_context: z.string().optional().describe('Context every subagent receives.'),
  max_concurrency: z.number().int().min(1).max(8).default(3).describe('Subagents running at once (default 3, max 8).'),
  timeout_seconds: z.number().int().min(5).max(900).default(300).describe('Per-subagent timeout in seconds (default 300, 5-900).'),
  result_format: z
    .enum(['concise', 'detailed', 'structured'])
    .default('structured')
    .describe('Shape of each subagent answer (default structured).'),
});

const workerResult = z.object({
  id: z.string(),
  status: z.string().describe('completed, failed, timed_out, canceled or crashed.'),
  agent_name: z.string(),
  session_id: z.string().nullable(),
  duration_ms: z.number().int().nullable().optional(),
  iterations: z.number().int().nullable().optional(),
  output: z.string().nullable().describe('The worker answer, cut to its share of the 60000-byte budget.'),
  error: z.string().nullable(),
  truncated: z.boolean(),
});

export const subagentsOutput = z.object({
  status: z.string(),
  results: z.array(workerResult),
  summary: z.object({
    requested: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
    timed_out: z.number().int(),
    canceled: z.number().int(),
  }),
});

export const subagents = defineBuiltin({
  name: 'subagents',
  description:
    'Run one or more temporary subagents for delegated work, concurrently up to a cap. Workers can read, browse and call APIs but never write local state or touch the desktop; you synthesize their results.',
  policy_class: 'external_api',
  category: 'delegation',
  input: subagentsInput,
  output: subagentsOutput,
  when_to_use: 'A request has independent, substantial parts that gain speed or coverage from parallel work; skip it for small or tightly coupled work.',
  examples: [
    {
      args: {
        tasks: [
          { id: 'flights', task: 'Find round-trip flights Lisbon to Tokyo in May under 1200 EUR.' },
          { id: 'hotels', task: 'Find 4-star hotels near Shinjuku station under 250 EUR a night.' },
        ],
      },
      note: 'fan out two independent research tasks',
    },
  ],
  failure_modes: [
    { tag: 'no_source_trust', description: 'called outside a main-agent turn (no source trust)' },
    { tag: 'recursion', description: 'called from inside a subagent' },
    { tag: 'invalid_tasks', description: 'tasks missing, empty, over the cap, or with duplicate ids' },
  ],
  scope_requirements: ['agent:delegate'],
});
