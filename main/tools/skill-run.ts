import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { skillServiceOf } from '../skills/service.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { skillName } from './skill-name.js';

export const skillRunInput = lazySchema(() =>
  z.object({
    name: skillName('Installed skill name, from the skill catalog or skill_list.'),
    task: z.string().min(1).describe('Clear work request for the skill.'),
    context: z.string().optional().describe('Context from this conversation the skill needs.'),
  }),
);

const runSkill: Executor = async (args, context) => {
  const result = await skillServiceOf(context).run({ name: args.name as string, task: args.task as string, context: args.context as string | undefined }, context);
  const note = result.status === 'completed' ? '' : ` (ended ${result.status})`;
  return { text: `Skill ${result.skill}${note}:\n${result.text}`, data: result, audit: { skill: result.skill, depth: result.depth, status: result.status, iterations: result.iterations } };
};

export const skillRun = defineBuiltin({
  name: 'skill_run',
  description: "Run an installed skill by name as a delegated sub-run, confined to the skill's own allowed tools.",
  policy_class: 'exec',
  category: 'skill_admin',
  input: skillRunInput,
  when_to_use: 'A skill should do the work itself (as a sub-run) rather than only inform the current turn.',
  examples: [
    { args: { name: 'weekly_report', task: 'Draft this week\'s report from notes/2025-w14.md.' }, note: 'delegate a task to a skill' },
  ],
  failure_modes: [
    { tag: 'unknown_skill', description: 'no installed skill has that name' },
    { tag: 'invalid_skill_name', description: 'name has unsupported characters or is too long' },
    { tag: 'max_depth', description: 'skills nested more than 4 levels deep' },
    { tag: 'timeout', description: 'the skill run exceeded its timeout' },
  ],
  scope_requirements: ['skills:read', 'agent:delegate'],
  executor: runSkill,
  // The skill's own timeout_seconds (at most 3,600) bounds the run; this only keeps the boundary from cutting it first.
  timeout_ms: 3_660_000,
});
