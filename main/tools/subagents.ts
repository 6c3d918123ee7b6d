import { z } from 'zod';
import type { ExecutionContext, Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export const subagentsInput = lazySchema(() =>
  z.object({
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
  }),
);

const workerResult = lazySchema(() =>
  z.object({
    id: z.string(),
    status: z.string().describe('completed, failed, timed_out, canceled or crashed.'),
    agent_name: z.string(),
    session_id: z.string().nullable(),
    duration_ms: z.number().int().nullable().optional(),
    iterations: z.number().int().nullable().optional(),
    output: z.string().nullable().describe('The worker answer, cut to its share of the 60000-byte budget.'),
    error: z.string().nullable(),
    truncated: z.boolean(),
    input_tokens: z.number().int().describe('Tokens the worker sent to its model (also added to the parent turn).'),
    output_tokens: z.number().int(),
    cost_usd: z.number().nullable().describe('Estimated cost, null when the provider has no price.'),
  }),
);

export const subagentsOutput = lazySchema(() =>
  z.object({
    status: z.string(),
    results: z.array(workerResult()),
    summary: z.object({
      requested: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      timed_out: z.number().int(),
      canceled: z.number().int(),
    }),
    usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int(), cost_usd: z.number().nullable() }),
  }),
);

export type SubagentsArgs = z.output<ReturnType<typeof subagentsInput>>;
export type SubagentsResult = z.output<ReturnType<typeof subagentsOutput>>;

/**
 * `context.services.subagents`: provided by the agent service to main-agent turns only (never to
 * workers, jobs' MCP callers or `fermix capabilities call`), which is what "source trust" means here.
 */
export interface SubagentsService {
  runBatch(input: SubagentsArgs, context: { trust: ExecutionContext['trust']; conversationId?: string; signal: AbortSignal }): Promise<SubagentsResult>;
}

const invalidTasks = (message: string, data?: Record<string, unknown>) =>
  new FermixError({ code: 'invalid_tasks', message, hint: 'Call subagents again with 1-8 tasks, each with a unique id and a non-empty task.', data });

const executeSubagents: Executor = async (args, context) => {
  if (context.origin === 'subagent') {
    throw new FermixError({ code: 'recursion', message: 'A subagent cannot start subagents of its own.', hint: 'Do the work with the tools offered here, and report back to the main agent.' });
  }
  const raw = context.services?.subagents as Partial<SubagentsService> | undefined;
  if (raw === null || typeof raw !== 'object' || typeof raw.runBatch !== 'function') {
    throw new FermixError({
      code: 'no_source_trust',
      message: 'subagents runs only inside a main-agent turn, and this call has none.',
      hint: 'Ask for the delegated work in the chat window or with `fermix ask`; jobs, MCP clients and `fermix capabilities call` cannot start subagents.',
    });
  }
  const parsed = subagentsInput().safeParse(args);
  if (!parsed.success) throw invalidTasks(`subagents got invalid tasks: ${parsed.error.issues[0]?.message ?? 'unreadable arguments'}.`, { path: parsed.error.issues[0]?.path });
  const ids = parsed.data.tasks.map((task) => task.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) throw invalidTasks(`Two tasks share the id ${JSON.stringify(duplicate)}; ids must be unique.`, { id: duplicate });
  const result = await (raw as SubagentsService).runBatch(parsed.data, { trust: context.trust, conversationId: context.conversationId, signal: context.signal });
  return {
    text: JSON.stringify(result),
    data: result,
    audit: { requested: result.summary.requested, completed: result.summary.completed, failed: result.summary.failed, timed_out: result.summary.timed_out, canceled: result.summary.canceled },
  };
};

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
  executor: executeSubagents,
  // Each worker enforces its own timeout (≤ 900 s); the boundary's deadline only covers the worst case of
  // eight workers one after another (max_concurrency 1), plus a minute to wind down.
  timeout_ms: 8 * 900_000 + 60_000,
});
