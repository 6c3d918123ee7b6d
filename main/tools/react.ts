import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { optionalService, stringArg } from './tool-services.js';

const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9]\uFE0F?\u20E3/u;

/** One grapheme cluster that is an emoji: 👍, 👍🏽, 👨‍👩‍👧, 🇫🇷, 1️⃣ — not "ok", not "👍👍". */
export function isSingleEmoji(text: string): boolean {
  const clusters = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)];
  return clusters.length === 1 && PICTOGRAPHIC.test(text);
}

/**
 * Data `{reaction, ends_turn: true}` tells the agent loop to end the turn without another model call
 * and without text (Fermix: a delivered reaction with no text ends the turn).
 */
const executeReact: Executor = async (args, context) => {
  const emoji = stringArg(args, 'emoji', 'unsupported_emoji', 'react').trim();
  const sink = optionalService(context, 'reactions');
  if (sink === undefined || context.conversationId === undefined) {
    throw new FermixError({ code: 'reply_fn_required', message: 'This run has no chat message to react to.', hint: 'Answer in text instead.' });
  }
  if (sink.supported === false) {
    throw new FermixError({ code: 'reaction_unsupported', message: 'This channel does not support reactions.', hint: 'Answer with a short text instead.' });
  }
  if (!isSingleEmoji(emoji)) {
    throw new FermixError({ code: 'unsupported_emoji', message: `react takes exactly one emoji; got ${JSON.stringify(emoji.slice(0, 40))}.`, hint: 'Pass a single emoji such as 👍, or answer in text.', data: { emoji } });
  }
  if (sink.allowed !== undefined && !sink.allowed.includes(emoji)) {
    throw new FermixError({ code: 'unsupported_emoji', message: `This channel does not accept ${emoji} as a reaction.`, hint: `Use one of: ${sink.allowed.join(' ')}.`, data: { emoji, allowed: sink.allowed } });
  }
  await sink.react({ conversationId: context.conversationId, emoji });
  return { text: `Reacted with ${emoji}.`, data: { reaction: emoji, ends_turn: true } };
};

export const reactInput = lazySchema(() =>
  z.object({
    emoji: z.string().min(1).describe("A single emoji that fits the user's message (restricted channels accept only their own set)."),
  }),
);

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
  executor: executeReact,
});
