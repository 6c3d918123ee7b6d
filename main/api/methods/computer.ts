import { z } from 'zod';
import { defineMethod } from '../define.js';
import { computerStateSchema } from '../system-events.js';

export type ComputerState = z.infer<typeof computerStateSchema>;

const changeOutput = computerStateSchema.extend({ changed: z.boolean() });

export const computerMethods = {
  'computer.status': defineMethod({
    description: 'Whether computer use is enabled and whether it is paused.',
    input: z.object({}).strict().default({}),
    output: computerStateSchema,
  }),
  'computer.pause': defineMethod({
    description: '/pause: computer use refuses further actions until resumed (the running turn goes on).',
    input: z.object({}).strict().default({}),
    output: changeOutput,
  }),
  'computer.set_enabled': defineMethod({
    description: 'Turn computer use on or off ([fermix_core.computer_use] enabled in config.toml); enabling checks the native layer first. Applies on the next daemon restart.',
    input: z.object({ enabled: z.boolean() }).strict(),
    output: computerStateSchema.extend({
      restart_required: z.boolean(),
      /** The native layer's answer when enabling (a display, not Wayland, the desktop library loads); null when disabling. */
      native: z.object({ available: z.boolean(), detail: z.string() }).nullable(),
    }),
  }),
  'computer.resume': defineMethod({
    description: '/resume: computer use may act again.',
    input: z.object({}).strict().default({}),
    output: changeOutput,
  }),
};
