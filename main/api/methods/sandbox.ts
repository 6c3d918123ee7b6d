import { z } from 'zod';
import { defineMethod } from '../define.js';

/** What `fermix sandbox explain --command` prints (main/sandbox/explain-command.ts builds it). */
export const commandExplanationSchema = z.object({
  command_bytes: z.number().int(),
  hardline: z.string().nullable(),
  hardline_description: z.string().nullable(),
  hardline_excerpt: z.string().nullable(),
  readers: z.array(z.string()),
  refused_by: z.enum(['invalid_command', 'working_dir', 'hardline', 'jail_required']).nullable(),
  would_run: z.boolean(),
  jailed: z.boolean(),
  jail: z.object({ active: z.boolean(), required: z.boolean(), reason: z.string() }),
  working_dir: z.object({ path: z.string(), allowed: z.boolean(), reason: z.string().nullable(), real_path: z.string().nullable() }),
  env: z.object({
    mode: z.string(),
    names: z.array(z.string()),
    allowed: z.array(z.object({ name: z.string(), source: z.enum(['daemon', 'helper', 'keychain_or_unset']) })),
  }),
});

export const sandboxMethods = {
  'sandbox.reload': defineMethod({
    description: 'Re-read [sandbox] from config.toml and apply it: roots, env, and the command capabilities, swapped atomically.',
    input: z.object({}).strict().default({}),
    output: z.object({ mode: z.string(), commands_added: z.array(z.string()), commands_removed: z.array(z.string()) }),
  }),
  'sandbox.explain_command': defineMethod({
    description: "How the running daemon's sandbox would treat a shell command — size cap, hardline rule, jail, working directory, environment names — without running it.",
    // Up to twice the command cap, so an oversized command is explained (refused by the cap) rather than rejected here.
    input: z.object({ command: z.string().max(256 * 1024), working_dir: z.string().min(1).optional() }).strict(),
    output: commandExplanationSchema,
  }),
};
