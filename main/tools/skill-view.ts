import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { skillServiceOf } from '../skills/service.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { skillName } from './skill-name.js';

export const skillViewInput = lazySchema(() =>
  z.object({
    name: skillName('Installed skill name, from the skill catalog or skill_list.'),
    file: skillName('Reference file name (no extension) to load instead of the SKILL.md body, when the body points to one.').optional(),
  }),
);

const viewSkill: Executor = async (args, context) => {
  const view = skillServiceOf(context).view(args.name as string, args.file as string | undefined);
  const refs = 'references' in view && view.references.length > 0 ? `\nReference files (skill_view with file): ${view.references.join(', ')}` : '';
  const head = `Skill ${view.name} (${view.trust}, ${view.source}): ${view.description}\nallowed_tools: ${view.allowed_tools === null ? 'trust default' : JSON.stringify(view.allowed_tools)}; role: ${view.role}; max_iterations: ${view.max_iterations}; timeout_seconds: ${view.timeout_seconds}${refs}`;
  return { text: `${head}\n\n${'file' in view ? `--- ${view.file}.md ---\n` : ''}${view.body}`, data: view };
};

export const skillView = defineBuiltin({
  name: 'skill_view',
  description: "Show an installed skill's instructions and metadata, or one of its named reference files.",
  policy_class: 'exec',
  category: 'skill_admin',
  input: skillViewInput,
  when_to_use: 'The skill catalog suggests a skill applies: load its full instructions before following them.',
  examples: [
    { args: { name: 'weekly_report' }, note: 'load a skill body' },
    { args: { name: 'weekly_report', file: 'template' }, note: 'load a reference file the skill points to' },
  ],
  failure_modes: [
    { tag: 'unknown_skill', description: 'no installed skill has that name' },
    { tag: 'invalid_skill_name', description: 'name has unsupported characters or is too long' },
    { tag: 'reference_not_found', description: 'the skill has no reference file with that name' },
    { tag: 'skill_body_too_large', description: 'the body exceeds 65536 bytes' },
  ],
  scope_requirements: ['skills:read'],
  executor: viewSkill,
});
