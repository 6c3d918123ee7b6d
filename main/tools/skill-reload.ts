import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const skillReloadInput = z.object({});

export const skillReloadOutput = z.object({
  version: z.number().int().nullable().optional(),
  count: z.number().int(),
  names: z.array(z.string()),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
  errors: z.array(z.string()),
});

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
});
