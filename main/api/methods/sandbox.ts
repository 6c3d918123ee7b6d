import { z } from 'zod';
import { defineMethod } from '../define.js';

export const sandboxMethods = {
  'sandbox.reload': defineMethod({
    description: 'Re-read [sandbox] from config.toml and apply it: roots, env, and the command capabilities, swapped atomically.',
    input: z.object({}).strict().default({}),
    output: z.object({ mode: z.string(), commands_added: z.array(z.string()), commands_removed: z.array(z.string()) }),
  }),
};
