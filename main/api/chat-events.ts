import { z } from 'zod';

/**
 * Events of the agent loop, emitted on the conversation's stream (so `events.replay` with the
 * conversation id returns a turn's whole story). Every payload names its turn.
 */
const usage = z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() });
const wireError = z.object({ code: z.string(), message: z.string(), hint: z.string() });

export const TURN_FINISH_STATUSES = ['completed', 'partial', 'failed', 'stopped', 'interrupted'] as const;

export const chatEventSchemas = {
  'chat.turn_queued': z.object({ turn_id: z.string(), conversation_id: z.string(), position: z.number().int().min(0) }),
  'chat.turn_started': z.object({ turn_id: z.string(), conversation_id: z.string(), resumed: z.boolean() }),
  /** Streamed answer text (coalesced, a few tens of ms per event). */
  'chat.delta': z.object({ turn_id: z.string(), text: z.string() }),
  /** `name` is the real tool (tool_call unwrapped); `requested_name` is what the model called. */
  'chat.tool_call': z.object({ turn_id: z.string(), call_id: z.string(), name: z.string(), requested_name: z.string(), args: z.unknown() }),
  'chat.tool_result': z.object({
    turn_id: z.string(),
    call_id: z.string(),
    name: z.string(),
    ok: z.boolean(),
    error_code: z.string().nullable(),
    /** First 2,000 characters of the result text. */
    preview: z.string(),
    duration_ms: z.number(),
    images: z.array(z.object({ mime_type: z.string(), base64: z.string() })),
  }),
  /** The gate answered `ask`: the turn waits for approval `approval_id` (answer it through the approvals API). */
  'chat.parked': z.object({ turn_id: z.string(), call_id: z.string(), approval_id: z.string(), capability: z.string(), reason: z.string(), card: z.unknown() }),
  'chat.resumed': z.object({ turn_id: z.string(), approval_id: z.string(), answer: z.string() }),
  /** chat.pause / chat.resume: `pausing` until the step under way finishes, `paused` while held, `running` again on resume. */
  'chat.turn_hold': z.object({ turn_id: z.string(), conversation_id: z.string(), state: z.enum(['running', 'pausing', 'paused']) }),
  /** Loop warnings, provider fallbacks, history repairs. */
  'chat.warning': z.object({ turn_id: z.string(), code: z.string(), message: z.string() }),
  'chat.turn_finished': z.object({
    turn_id: z.string(),
    conversation_id: z.string(),
    status: z.enum(TURN_FINISH_STATUSES),
    text: z.string(),
    stop_reason: z.string().nullable(),
    error: wireError.nullable(),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    iterations: z.number().int(),
    usage,
    cost_usd: z.number().nullable(),
  }),
  'chat.error': z.object({ turn_id: z.string(), code: z.string(), message: z.string(), hint: z.string() }),
} as const;
