import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const reactInput = z.object({
  emoji: z.string().min(1).describe("A single emoji that fits the user's message (restricted channels accept only their own set)."),
});

export const react = defineBuiltin({
  name: 'react',
  description:
    "React to the user's message with a single fitting emoji instead of a text reply, for pure acknowledgements (\"ok\", \"thanks\"). A delivered reaction with no text ends the turn.",
  policy_class: 'read_only',
  category: 'channel',
  input: reactInput,
  when_to_use: 'The message needs no answer: an ok, a thanks, a closing pleasantry.',
  examples: [
    { args: { emoji: '👍' }, note: 'acknowledge a plain "ok"' },
    { args: { emoji: '🎉' }, note: 'celebrate "we shipped it"' },
  ],
  failure_modes: [
    { tag: 'reply_fn_required', description: 'this run has no active channel to reply to' },
    { tag: 'reaction_unsupported', description: 'the active channel does not support reactions' },
    { tag: 'unsupported_emoji', description: 'the channel does not accept this emoji' },
  ],
  scope_requirements: ['channel:send'],
});
