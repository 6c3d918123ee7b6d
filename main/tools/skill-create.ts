import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { skillServiceOf } from '../skills/service.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { skillName } from './skill-name.js';

export const skillCreateInput = lazySchema(() =>
  z.object({
    name: skillName('Skill name and directory: letters, digits, _ or -, 1-64 characters, not starting with _.'),
    description: z.string().min(1).describe('One line saying when the skill should be used (its trigger).'),
  }),
);

export const skillCreateOutput = lazySchema(() =>
  z.object({
    created: z.boolean(),
    path: z.string().describe('Directory of the new skill.'),
  }),
);

const createSkill: Executor = async (args, context) => {
  const created = skillServiceOf(context).create(args.name as string, args.description as string);
  return { text: `Created ${created.path}/SKILL.md and evals/evals.json. Fill in its instructions and allowed_tools, then run skill_reload.`, data: created };
};

export const skillCreate = defineBuiltin({
  name: 'skill_create',
  description: 'Scaffold a new local Fermix skill with SKILL.md and starter evals.',
  policy_class: 'read_write',
  category: 'skill_admin',
  input: skillCreateInput,
  output: skillCreateOutput,
  when_to_use: 'The owner wants a new reusable skill; fill in its SKILL.md afterwards and run skill_reload.',
  examples: [
    { args: { name: 'weekly_report', description: 'Use to draft the Friday status report from the week\'s notes.' }, note: 'create a skill scaffold' },
  ],
  failure_modes: [
    { tag: 'invalid_name', description: 'name has unsupported characters, is too long, or starts with _' },
    { tag: 'already_exists', description: 'a skill directory with that name already exists' },
    { tag: 'write_failed', description: 'writing SKILL.md or evals/evals.json failed' },
  ],
  scope_requirements: ['skills:write'],
  executor: createSkill,
});
