import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Field schemas shared by the scheduling tools (reference §2.8). */

export const SCHEDULE_GRAMMAR =
  'Exactly one form: an interval "every N minutes|hours|days"; a 5-field cron such as "0 8 * * 1-5" (*, lists, ranges, steps; DST-aware in the job timezone); or an ISO 8601 instant with offset for a one-off run. Free English such as "daily at 8am" is rejected.';

export const DELIVERY_MODES = ['none', 'origin', 'channel', 'local'] as const;

export const jobId = (description: string) => z.string().min(1).describe(description);

export const deliveryMode = lazySchema(() =>
  z
    .enum(DELIVERY_MODES)
    .describe('origin: report to the chat that asked; channel: to delivery_target or the configured default; local and none: deliver nothing to a chat.'),
);

// Ids are strings even where the platform uses numbers (Telegram's -100…): one type per field keeps
// the schema acceptable to every provider.
const chatId = lazySchema(() => z.string().min(1));

export const deliveryTarget = lazySchema(() =>
  z
    .object({
      platform: z.string().min(1).describe('Channel platform, e.g. telegram, slack, discord.'),
      chat_id: chatId().optional().describe('Chat id on the platform, as a string.'),
      channel_id: chatId().optional().describe('Channel id on the platform, as a string.'),
      recipient: z.string().optional().describe('Recipient address, e.g. a phone number or e-mail.'),
      target: z.string().optional().describe('Platform-specific target name.'),
      reply_target: z.string().optional().describe('Reply target of an earlier message.'),
    })
    .describe('Where channel delivery goes: platform plus one of chat_id, channel_id, recipient, target, reply_target.'),
);

export const routeProvider = lazySchema(() =>
  z
    .string()
    .min(1)
    .describe('Provider to pin runs to (anthropic, openai, openrouter, ollama, …); set together with model.'),
);

export const routeModel = lazySchema(() => z.string().min(1).describe('Provider-specific model id to pin runs to; set together with provider.'));

export const skillBinding = lazySchema(() =>
  z
    .string()
    .min(1)
    .describe("Loaded skill to run the job inside; its allowed tools and policy intersect with the job's, never widen them."),
);
