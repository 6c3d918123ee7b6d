import { z } from 'zod';
import { chatEventSchemas } from './chat-events.js';
import { computerStateSchema, jobRunFinishedSchema, pluginInstallProgressSchema } from './system-events.js';

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
  /** send_attachment delivered a file to the chat (bytes stored under $FERMIX_HOME/attachments). */
  'chat.attachment': z.object({ conversation_id: z.string(), id: z.string(), filename: z.string(), mime_type: z.string(), kind: z.string(), bytes: z.number().int(), caption: z.string().nullable() }),
  /** react: one emoji on the message that started the turn. */
  'chat.reaction': z.object({ conversation_id: z.string(), emoji: z.string() }),
  /** request_directory_access is waiting: show the Approve/Deny card (answer with directory_access.answer). */
  'directory_access.requested': z.object({ conversation_id: z.string(), token: z.string(), path: z.string(), reason: z.string(), message: z.string(), expires_at: z.string() }),
  'directory_access.settled': z.object({ token: z.string(), outcome: z.string() }),
  /** Computer use's pause switch changed (tray, window, CLI): the same shape computer.status answers. */
  'computer.state': computerStateSchema,
  /**
   * A subagents worker changed state (queued → running → completed, failed, timed_out or canceled), on the
   * parent conversation's stream: the window draws one live card per worker, keyed by batch_id + worker_id.
   */
  'chat.subagent': z.object({
    turn_id: z.string(),
    batch_id: z.string(),
    worker_id: z.string(),
    task: z.string(),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'timed_out', 'canceled']),
    iterations: z.number().int(),
    /** The tool the worker is running now (or ran last), null before its first call. */
    tool: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cost_usd: z.number().nullable(),
    error: z.string().nullable(),
    /** The first 400 characters of the worker's answer once it is done. */
    preview: z.string().nullable(),
  }),
  /** A plugin install moved to its next phase (download, verify, extract, activate, done). */
  'plugins.install_progress': pluginInstallProgressSchema,
  /** A scheduled job's run finished (main/jobs/delivery.ts): a notification, and the Jobs screen refreshes. */
  'job.run_finished': jobRunFinishedSchema,
  ...chatEventSchemas,
} as const;
export type EventType = keyof typeof eventPayloadSchemas;

export const SYSTEM_STREAM = 'system';
