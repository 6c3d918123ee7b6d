import { z } from 'zod';
import { defineMethod } from '../define.js';
import { attachmentRefSchema } from './attachments.js';

/** A stored message with the turn that wrote it (null for messages written outside a turn). */
export const historyMessageSchema = z.object({
  id: z.number().int(),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  content: z.string(),
  created_at: z.string(),
  turn_id: z.string().nullable(),
  /** A user message's files (attachments.get reads one); absent when it has none. */
  attachments: z.array(attachmentRefSchema).optional(),
  /** A tool result's images (screenshots), for the newest 3 of the conversation; absent when none is returned. */
  images: z.array(z.object({ mime_type: z.string(), base64: z.string() })).optional(),
  /** How many older images of this tool result are no longer returned (the window says so). */
  images_omitted: z.number().int().min(1).optional(),
});

/** A compaction: from `through_message_id` back, model calls read `summary` instead of the messages (which stay). */
export const compactionSchema = z.object({
  id: z.number().int(),
  through_message_id: z.number().int(),
  summary: z.string(),
  reason: z.enum(['auto', 'manual', 'overflow']),
  /** Messages the summary stands for, counting those of earlier compactions it merged. */
  replaced_messages: z.number().int(),
  tokens_before: z.number().int(),
  tokens_after: z.number().int(),
  created_at: z.string(),
});

export const chatHistoryMethods = {
  'chat.history': defineMethod({
    description: "A conversation's messages with the turn each belongs to, newest last, and the compactions cut inside the page; before_id pages back through long conversations.",
    input: z.object({
      conversation_id: z.string().min(1).max(128),
      limit: z.number().int().min(1).max(5000).default(200),
      before_id: z.number().int().min(1).optional(),
    }).strict(),
    output: z.object({
      messages: z.array(historyMessageSchema),
      has_more: z.boolean(),
      /** Where the conversation was compacted within this page (the window shows a marker after that message). */
      compactions: z.array(compactionSchema).optional(),
    }),
  }),
};
