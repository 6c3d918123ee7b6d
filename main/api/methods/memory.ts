import { z } from 'zod';
import { defineMethod } from '../define.js';

/**
 * The owner's stored memories, for `fermix memory list|search|forget` (and a future Memory screen).
 * Always operator trust: these are served to the owner's own clients, never to the agent — the agent
 * has memory_recall and memory_store, and no memory_forget tool is registered (forgetting is the owner's call).
 */
export const memorySchema = z.object({
  id: z.number().int(),
  key: z.string(),
  value: z.string(),
  category: z.string(),
  /** owner, agent, or conversation:<id> / job:<id>. */
  scope: z.string(),
  /** How sure the writer was (admission refuses below 0.75); 1 for an explicit memory_store call. */
  confidence: z.number(),
  /** operator, or guest: a guest-written memory is never fed into the owner's prompt. */
  written_by: z.string(),
  updated_at: z.string(),
});

const historyHitSchema = z.object({ conversation_id: z.string(), title: z.string(), role: z.string(), snippet: z.string(), created_at: z.string() });

export const memoryMethods = {
  'memory.list': defineMethod({
    description: 'Every stored memory (every scope), newest first (limit 200, max 1000).',
    input: z.object({ limit: z.number().int().min(1).max(1000).default(200) }).strict().default({ limit: 200 }),
    output: z.object({ memories: z.array(memorySchema) }),
  }),
  'memory.search': defineMethod({
    description: 'Full-text search over the stored memories (and, with source history|all, past conversations); at most 10 of each. scope as memory_recall: current needs conversation_id; owner = owner and agent memories; all (default) = every scope.',
    input: z.object({
      query: z.string().trim().min(1).max(500),
      source: z.enum(['memories', 'history', 'all']).default('memories'),
      scope: z.enum(['current', 'owner', 'all']).default('all'),
      conversation_id: z.string().min(1).max(200).optional(),
    }).strict(),
    output: z.object({ memories: z.array(memorySchema), history: z.array(historyHitSchema) }),
  }),
  'memory.forget': defineMethod({
    description: 'Delete one memory by its numeric id, or every memory with that key; not_found when none matches.',
    input: z.object({ target: z.string().trim().min(1).max(200) }).strict(),
    output: z.object({ removed: z.array(memorySchema) }),
  }),
};
