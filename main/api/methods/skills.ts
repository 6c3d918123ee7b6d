import { z } from 'zod';
import { defineMethod } from '../define.js';

/** The skill registry's snapshot (reference §2.4), for `fermix skills list|view|reload`. */
const skillName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/);

export const skillSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  trust: z.enum(['operator', 'guest']),
  source: z.enum(['bundled', 'local', 'plugin']),
  plugin: z.string().nullable(),
  /** null = the trust default; [] = no tools. */
  allowed_tools: z.array(z.string()).nullable(),
  role: z.enum(['main', 'sub']),
});

const reloadReportSchema = z.object({ count: z.number().int(), names: z.array(z.string()), added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()), errors: z.array(z.string()) });

export const skillMethods = {
  'skills.list': defineMethod({
    description: 'Every loaded skill, plus the load errors of the last reload (a bad SKILL.md is skipped, never fatal).',
    input: z.object({}).strict().default({}),
    output: z.object({ skills: z.array(skillSummarySchema), errors: z.array(z.string()) }),
  }),
  'skills.view': defineMethod({
    description: "One skill's metadata and body, or one of its references/*.md files.",
    input: z.object({ name: skillName, file: z.string().min(1).max(64).optional() }).strict(),
    output: skillSummarySchema.extend({
      policy: z.array(z.string()).nullable(),
      max_iterations: z.number().int(),
      timeout_seconds: z.number().int(),
      body: z.string(),
      references: z.array(z.string()).optional(),
      file: z.string().optional(),
    }),
  }),
  'skills.reload': defineMethod({
    description: 'Re-scan the skill folders without a restart; reports added, removed and changed skills and load errors.',
    input: z.object({}).strict().default({}),
    output: reloadReportSchema,
  }),
  'skills.create': defineMethod({
    description: 'skill_create from the window: SKILL.md and an evals/evals.json scaffold under $FERMIX_HOME/skills/<name>/, then a reload so it is listed.',
    // The name is checked by the skill service, exactly as for skill_create (invalid_name, already_exists), not here.
    input: z.object({ name: z.string().max(200), description: z.string().trim().min(1).max(1024) }).strict(),
    output: z.object({ created: z.boolean(), path: z.string(), reload: reloadReportSchema }),
  }),
};
