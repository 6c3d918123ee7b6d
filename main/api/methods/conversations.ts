import { z } from 'zod';
import { defineMethod } from '../define.js';

export const conversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  pinned: z.boolean(),
  /** auto: the first words (a model may write one once); model: written by the model; user: typed. */
  title_source: z.enum(['auto', 'model', 'user']),
});

export const messageSchema = z.object({
  id: z.number().int(),
  conversation_id: z.string(),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  content: z.string(),
  created_at: z.string(),
});

const idInput = z.object({ id: z.string().min(1) }).strict();

export const conversationMethods = {
  'conversations.create': defineMethod({
    description: 'Start a conversation. The window calls it with the first message\'s words (auto_title) just before sending it.',
    input: z.object({ title: z.string().trim().max(200).optional(), auto_title: z.boolean().optional() }).strict().default({}),
    output: conversationSchema,
  }),
  'conversations.list': defineMethod({
    description: 'List conversations, newest first (deleted ones are left out).',
    input: z.object({ limit: z.number().int().min(1).max(500).default(100) }).strict().default({ limit: 100 }),
    output: z.object({ conversations: z.array(conversationSchema) }),
  }),
  'conversations.get': defineMethod({
    description: 'One conversation with its newest messages (200 unless limit says otherwise); before_id pages back.',
    input: z.object({ id: z.string().min(1), limit: z.number().int().min(1).max(5000).default(200), before_id: z.number().int().min(1).optional() }).strict(),
    output: z.object({ conversation: conversationSchema, messages: z.array(messageSchema), has_more: z.boolean() }),
  }),
  'conversations.rename': defineMethod({
    description: 'Rename a conversation (a typed title is never replaced by a generated one).',
    input: z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(200) }).strict(),
    output: conversationSchema,
  }),
  'conversations.pin': defineMethod({
    description: 'Pin a conversation to the top of the list, or unpin it.',
    input: z.object({ id: z.string().min(1), pinned: z.boolean() }).strict(),
    output: conversationSchema,
  }),
  'conversations.delete': defineMethod({
    description: 'Delete a conversation. It can be restored (conversations.restore) until restorable_until, then it is purged.',
    input: idInput,
    output: z.object({ id: z.string(), restorable_until: z.string() }),
  }),
  'conversations.restore': defineMethod({
    description: 'Bring back a deleted conversation (the window\'s Undo).',
    input: idInput,
    output: conversationSchema,
  }),
  'conversations.search': defineMethod({
    description: 'Conversations whose title or messages contain every word of the query (full-text, prefix on the last word).',
    input: z.object({ query: z.string().trim().min(1).max(200), limit: z.number().int().min(1).max(100).default(30) }).strict(),
    output: z.object({ hits: z.array(z.object({ conversation: conversationSchema, snippet: z.string().nullable() })) }),
  }),
};
