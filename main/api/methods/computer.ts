import { z } from 'zod';
import { defineMethod } from '../define.js';

/**
 * Computer use's pause switch (the seed's `/pause` and `/resume`, and the tray's Pause / Resume).
 * `/pause` hands mouse and keyboard back to the person: the session stays, further actions are refused
 * until `/resume`. Unlike `/stop`, it never ends a turn.
 */
export const computerStateSchema = z.object({
  /** `[fermix_core.computer_use] enabled` in config.toml (off by default). */
  enabled: z.boolean(),
  paused: z.boolean(),
  /** One sentence for people: what the state means right now. */
  summary: z.string(),
  /** True when config.toml's enabled differs from what this daemon started with (computer.set_enabled; a restart applies it). */
  restart_required: z.boolean().optional(),
  /** True while a computer_use action runs (computer.status and `computer.state` events; absent means false). */
  acting: z.boolean().optional(),
});
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
