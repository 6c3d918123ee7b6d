import { z } from 'zod';
import { defineMethod } from '../define.js';
import { eventEnvelopeSchema } from '../events.js';

export const eventMethods = {
  'events.replay': defineMethod({
    description: 'Events of one stream (a conversation id, or "system") after a sequence number — what a reconnecting window missed.',
    input: z.object({ stream: z.string().min(1), after_seq: z.number().int().min(0) }).strict(),
    output: z.object({ events: z.array(eventEnvelopeSchema), latest_seq: z.number().int(), complete: z.boolean() }),
  }),
};
