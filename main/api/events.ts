import { z } from 'zod';
import { chatEventSchemas } from './chat-events.js';

/**
 * Every event travels in this envelope. `stream` is a conversation id or "system";
 * `seq` increases by one per stream, so a reconnecting client asks for what came after its last seq.
 */
export const eventEnvelopeSchema = z.object({
  stream: z.string(),
  seq: z.number().int().min(1),
  type: z.string(),
  time: z.string(),
  payload: z.unknown(),
});
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

/** Payload schemas per event type; the daemon validates what it emits. */
export const eventPayloadSchemas = {
  'conversation.created': z.object({ id: z.string(), title: z.string() }),
  'conversation.updated': z.object({ id: z.string(), title: z.string() }),
  'daemon.stopping': z.object({ reason: z.string() }),
  'approval.requested': z.object({ id: z.string(), capability: z.string(), summary: z.string() }),
  'approval.resolved': z.object({ id: z.string(), answer: z.string() }),
  ...chatEventSchemas,
} as const;
export type EventType = keyof typeof eventPayloadSchemas;

export const SYSTEM_STREAM = 'system';
