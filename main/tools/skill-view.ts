import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { skillName } from './skill-name.js';

export const skillViewInput = z.object({
  name: skillName('Installed skill name, from the skill catalog or skill_list.'),
  file: skillName('Reference file name (no extension) to load instead of the SKILL.md body, when the body points to one.').optional(),
});

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
});
