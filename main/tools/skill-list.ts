import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { skillServiceOf } from '../skills/service.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export const skillListInput = lazySchema(() => z.object({}));

export const skillListOutput = lazySchema(() =>
  z.object({
    skills: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        trust: z.string().describe('operator (bundled or local) or guest (plugin-shipped).'),
      }),
    ),
  }),
);

const listSkills: Executor = async (_args, context) => {
  const skills = skillServiceOf(context).list().map((skill) => ({ name: skill.name, description: skill.description, trust: skill.trust }));
  const text = skills.length > 0 ? skills.map((skill) => `- ${skill.name} (${skill.trust}): ${skill.description}`).join('\n') : 'No skills are installed. Create one with skill_create.';
  return { text, data: { skills } };
};

export const skillList = defineBuiltin({
  name: 'skill_list',
  description: 'List installed skills available to the agent, with name, description and trust.',
  policy_class: 'read_only',
  category: 'system',
  input: skillListInput,
  output: skillListOutput,
  when_to_use: 'Discover which skills exist before viewing or running one (subagents have no skill catalog in their prompt).',
  examples: [{ args: {}, note: 'list all installed skills' }],
  failure_modes: [{ tag: 'registry_unavailable', description: 'the skill registry could not be queried' }],
  scope_requirements: ['skills:read'],
  executor: listSkills,
});
