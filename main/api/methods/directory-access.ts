import { z } from 'zod';
import { defineMethod } from '../define.js';

const pendingGrant = z.object({ token: z.string(), conversation_id: z.string(), path: z.string(), reason: z.string(), diff: z.string(), message: z.string(), expires_at: z.string() });

export const directoryAccessMethods = {
  'directory_access.pending': defineMethod({
    description: 'Folder grants the agent asked for and that wait for the owner (request_directory_access).',
    input: z.object({ conversation_id: z.string().optional() }).strict().default({}),
    output: z.object({ pending: z.array(pendingGrant) }),
  }),
  'directory_access.answer': defineMethod({
    description: 'Approve or deny a folder grant from the chat (the card, or /confirm TOKEN and /deny TOKEN). Single-use, 60 s.',
    input: z.object({ token: z.string().min(4).max(32), decision: z.enum(['confirm', 'deny']), conversation_id: z.string().optional() }).strict(),
    output: z.object({ outcome: z.enum(['granted', 'denied', 'expired']) }),
  }),
};
