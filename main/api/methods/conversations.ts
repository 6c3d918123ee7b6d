import { z } from 'zod';
import { defineMethod } from '../define.js';

export const conversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const messageSchema = z.object({
  id: z.number().int(),
  conversation_id: z.string(),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  content: z.string(),
  created_at: z.string(),
});

export const conversationMethods = {
  'conversations.create': defineMethod({
    description: 'Start a new conversation (the /new command).',
    input: z.object({ title: z.string().trim().max(200).optional() }).strict().default({}),
    output: conversationSchema,
  }),
  'conversations.list': defineMethod({
    description: 'List conversations, newest first.',
    input: z.object({ limit: z.number().int().min(1).max(500).default(100) }).strict().default({ limit: 100 }),
    output: z.object({ conversations: z.array(conversationSchema) }),
  }),
  'conversations.get': defineMethod({
    description: 'One conversation with its messages.',
    input: z.object({ id: z.string().min(1) }).strict(),
    output: z.object({ conversation: conversationSchema, messages: z.array(messageSchema) }),
  }),
  'conversations.rename': defineMethod({
    description: 'Rename a conversation.',
    input: z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(200) }).strict(),
    output: conversationSchema,
  }),
};
