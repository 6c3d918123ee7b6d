import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { skillServiceOf } from '../skills/service.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export const skillReloadInput = lazySchema(() => z.object({}));

export const skillReloadOutput = lazySchema(() =>
  z.object({
    version: z.number().int().nullable().optional(),
    count: z.number().int(),
    names: z.array(z.string()),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.string()),
    errors: z.array(z.string()),
  }),
);

const reloadSkills: Executor = async (_args, context) => {
  let report;
  try {
    report = skillServiceOf(context).reload();
  } catch (error) {
    throw new FermixError({ code: 'reload_failed', message: `The skill directories could not be re-scanned: ${(error as Error).message}.`, hint: 'Check the permissions of $FERMIX_HOME/skills; `fermix doctor` checks the home.', cause: error });
  }
  const parts = [`${report.count} skills loaded`, `added: ${report.added.join(', ') || 'none'}`, `removed: ${report.removed.join(', ') || 'none'}`, `changed: ${report.changed.join(', ') || 'none'}`];
  const text = `${parts.join('; ')}.${report.errors.length > 0 ? `\nErrors:\n${report.errors.map((error) => `- ${error}`).join('\n')}` : ''}`;
  return { text, data: { version: null, ...report } };
};

export const skillReload = defineBuiltin({
  name: 'skill_reload',
  description: 'Reload skills from disk without restarting the daemon, and report the added, removed and changed skills and any load errors.',
  policy_class: 'read_write',
  category: 'skill_admin',
  input: skillReloadInput,
  output: skillReloadOutput,
  when_to_use: 'After creating or editing a SKILL.md (or installing a plugin that ships skills), so the change is usable in this session.',
  examples: [{ args: {}, note: 'reload skills after editing a SKILL.md' }],
  failure_modes: [
    { tag: 'reload_failed', description: 'the skill directories could not be re-scanned' },
    { tag: 'agent_unavailable', description: 'the main agent is not running' },
  ],
  scope_requirements: ['skills:write'],
  executor: reloadSkills,
});
