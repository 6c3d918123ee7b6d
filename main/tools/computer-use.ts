import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

/** Look-only actions: allowed in strict access. mouse_move changes nothing but still counts as disturbing (it takes the pointer). */
export const COMPUTER_READ_ACTIONS = ['screenshot', 'cursor_position', 'mouse_move', 'wait', 'wait_for_change'] as const;
export const COMPUTER_MUTATING_ACTIONS = [
  'left_click', 'right_click', 'middle_click', 'double_click', 'left_click_drag', 'scroll', 'type', 'key', 'paste',
] as const;
/** Actions that take the pointer or keyboard from the person: the courtesy check runs before each. */
export const COMPUTER_DISTURBING_ACTIONS: ReadonlySet<string> = new Set(['mouse_move', ...COMPUTER_MUTATING_ACTIONS]);

const point = (description: string) =>
  z.object({ x: z.number().int().describe('X pixel.'), y: z.number().int().describe('Y pixel.') }).describe(description);

export const computerUseInput = lazySchema(() =>
  z.object({
    action: z
      .enum([...COMPUTER_READ_ACTIONS, ...COMPUTER_MUTATING_ACTIONS])
      .describe(
        'One GUI action. Look-only: screenshot, cursor_position, mouse_move, wait, wait_for_change. Mutating (refused in strict access; each returns a fresh screenshot): left_click, right_click, middle_click, double_click, left_click_drag, scroll, type, key, paste.',
      ),
    x: z.number().int().optional().describe('X pixel from the latest screenshot, for click, move and scroll.'),
    y: z.number().int().optional().describe('Y pixel from the latest screenshot, for click, move and scroll.'),
    modifiers: z.array(z.enum(['cmd', 'ctrl', 'alt', 'shift'])).optional().describe('Modifier keys held during a click.'),
    from: point('Drag start point, for left_click_drag.').optional(),
    to: point('Drag end point, for left_click_drag.').optional(),
    direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('Scroll direction.'),
    amount: z.number().int().min(1).max(50).optional().describe('Scroll amount in wheel steps (default 3).'),
    text: z.string().optional().describe('Text for type or paste (paste goes through the clipboard; prefer it for long text).'),
    chord: z.string().optional().describe('Key chord for key, e.g. "ctrl+s", "cmd+shift+t", "f5".'),
    ms: z.number().int().min(0).max(25_000).optional().describe('Milliseconds to wait, for wait (default 1000).'),
    timeout_ms: z.number().int().min(1).max(25_000).default(10_000).describe('For wait_for_change: give up after this many ms (default 10000).'),
    poll_ms: z.number().int().min(1).default(250).describe('For wait_for_change: check interval in ms (default 250).'),
    region: z
      .object({
        x: z.number().int().describe('Left edge.'),
        y: z.number().int().describe('Top edge.'),
        w: z.number().int().min(1).describe('Width.'),
        h: z.number().int().min(1).describe('Height.'),
      })
      .optional()
      .describe('Zoom rectangle in screen coordinates (those of a full screenshot when the screen is at most 1280×800); pass the same region with every action that uses coordinates read from the crop.'),
  }),
);

export const computerUse = defineBuiltin({
  name: 'computer_use',
  description:
    "Drive the host desktop by screenshot and mouse/keyboard, one action per call; every mutating action returns a fresh check screenshot. Experimental, off by default, operator-only and never delegated; strict sandbox mode is look-only.",
  policy_class: 'gui_control',
  category: 'computer',
  input: computerUseInput,
  when_to_use:
    "State that exists only as pixels on the user's own screen, or a task that must act on the very app or session they are looking at; prefer file, web, browser or shell tools whenever the target is addressable.",
  examples: [
    { args: { action: 'screenshot' }, note: 'look before acting' },
    { args: { action: 'left_click', x: 640, y: 360 }, note: 'click a pixel from the latest screenshot' },
  ],
  failure_modes: [
    { tag: 'invalid action', description: 'the action or its arguments were malformed' },
    { tag: 'refused (strict access)', description: 'a mutating action while the sandbox mode is strict (look only); not performed' },
    { tag: 'action_budget_exhausted', description: 'the per-session action budget was used up; the session halted' },
    { tag: 'not active', description: 'computer use is not enabled, or this context has no attended session' },
    { tag: 'user_active', description: 'the human is using the machine; the disturbing action was held back' },
    { tag: 'paused', description: 'the human ran /pause; refused until /resume' },
    { tag: 'busy', description: 'another conversation holds the desktop; its hold lapses 60 s after its last action' },
    { tag: 'action_timeout', description: 'the action did not finish within its 30 s deadline; keys and buttons were released' },
  ],
  scope_requirements: ['desktop:control'],
  // Typed and pasted text is often a password.
  audit_behavior: 'redact_args',
  metadata: { secret_fields: ['text'], requires_setup: 'Set `[fermix_core.computer_use] enabled = true` in config.toml and restart the daemon; `fermix doctor` shows what else is missing.' },
  // Coordinates refer to the latest screenshot and the session holds the cursor: call order matters.
  is_stateful: true,
  // Sidecar session calls have a 40 s deadline.
  timeout_ms: 40_000,
});
