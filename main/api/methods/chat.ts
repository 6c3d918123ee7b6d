import { z } from 'zod';
import { defineMethod } from '../define.js';
import { attachmentId } from './attachments.js';
import { compactionSchema } from './chat-history.js';

const wireError = z.object({ code: z.string(), message: z.string(), hint: z.string() });

/** running; pausing (the current step finishes first); paused (held before its next model or tool call). */
export const holdState = z.enum(['running', 'pausing', 'paused']);

export const turnSummarySchema = z.object({
  turn_id: z.string(),
  conversation_id: z.string(),
  status: z.enum(['queued', 'running', 'parked', 'completed', 'partial', 'failed', 'stopped', 'interrupted']),
  /** The last answer text of the turn (partial text for a partial turn). */
  text: z.string(),
  stop_reason: z.string().nullable(),
  error: wireError.nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  iterations: z.number().int(),
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  /** Estimated from list prices; null when the provider's price is unknown. */
  cost_usd: z.number().nullable(),
  /** An unfinished turn's pause state (chat.pause); null once the turn has finished. */
  hold: holdState.nullable(),
});

const holdResult = z.object({
  /** The turn the pause applies to (the running one, else the next queued); null when nothing runs. */
  turn_id: z.string().nullable(),
  state: holdState,
  /** False when it already was in that state (or nothing was running). */
  changed: z.boolean(),
});

const toolCallSchema = z.object({
  call_id: z.string(),
  requested_name: z.string(),
  name: z.string(),
  args: z.unknown(),
  status: z.enum(['running', 'parked', 'ok', 'error', 'cancelled']),
  error_code: z.string().nullable(),
  result_preview: z.string().nullable(),
  duration_ms: z.number().nullable(),
});

/** A conversation id, or a session name chosen on the command line (`fermix ask --session work`). */
const conversationId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'letters, digits, _ . : - (at most 128)');

const providerSchema = z.object({
  name: z.string(),
  type: z.enum(['openai', 'anthropic', 'openai-compatible']),
  base_url: z.string().nullable(),
  model: z.string(),
  primary: z.boolean(),
  key: z.object({ source: z.enum(['keyring', 'env', 'none']), label: z.string().nullable(), present: z.boolean().nullable(), problem: z.string().nullable() }),
});

export const chatMethods = {
  'chat.send': defineMethod({
    description: 'Send a message: queues a turn (FIFO per conversation) and returns its ids; with wait, answers when the turn has finished. Progress arrives as chat.* events on the conversation stream.',
    input: z.object({
      /** May be empty only when the message carries attachments. */
      message: z.string().trim().max(100_000),
      /** Files stored with attachments.upload in this conversation (at most 10: attachment_too_many). */
      attachment_ids: z.array(attachmentId).max(100).optional(),
      conversation_id: conversationId.optional(),
      /** Create the conversation under conversation_id when it does not exist. */
      create_if_missing: z.boolean().default(false),
      title: z.string().trim().max(200).optional(),
      /** The caller's working directory, handed to the sandbox (`fermix ask` sends its cwd). */
      cwd: z.string().max(4096).optional(),
      source: z.enum(['app', 'cli']).default('app'),
      /** False when nobody can answer an approval card (a piped `fermix ask`): `ask` becomes a denial. */
      interactive: z.boolean().default(true),
      wait: z.boolean().default(false),
    }).strict().refine((input) => input.message.length > 0 || (input.attachment_ids?.length ?? 0) > 0, { message: 'Write a message or attach a file', path: ['message'] }),
    output: z.object({
      conversation_id: z.string(),
      turn_id: z.string(),
      /** Turns ahead of this one in the conversation's queue. */
      position: z.number().int(),
      /** The conversation stream's seq before this turn: `events.replay` after it returns the turn's events. */
      events_after_seq: z.number().int(),
      turn: turnSummarySchema.nullable(),
    }),
  }),
  'chat.fork': defineMethod({
    description: 'Edit-and-resend and regenerate: a new conversation with every message before the given (finished) turn, then that turn sent again there — with `message` when edited, else its own words. The original conversation stays as it was.',
    input: z.object({
      conversation_id: conversationId,
      turn_id: z.string().min(1),
      /** The edited message; absent: the turn's own message again (regenerate). */
      message: z.string().trim().min(1).max(100_000).optional(),
    }).strict(),
    output: z.object({ conversation_id: z.string(), turn_id: z.string(), title: z.string() }),
  }),
  'chat.stop': defineMethod({
    description: '/stop: cancel the running turn of a conversation (aborting its running tool) and the turns queued behind it.',
    input: z.object({ conversation_id: conversationId }).strict(),
    output: z.object({ stopped: z.number().int() }),
  }),
  'chat.pause': defineMethod({
    description: "Pause the conversation's running turn: the model reply or tool call under way finishes, then the turn holds before its next step (queued turns wait too) until chat.resume. /stop still ends it.",
    input: z.object({ conversation_id: conversationId }).strict(),
    output: holdResult,
  }),
  'chat.resume': defineMethod({
    description: 'Resume a turn paused with chat.pause: it goes on with its next model or tool call.',
    input: z.object({ conversation_id: conversationId }).strict(),
    output: holdResult,
  }),
  'chat.turn': defineMethod({
    description: 'One turn: status, answer, usage and cost; with wait, answers when it has finished.',
    input: z.object({ turn_id: z.string().min(1), wait: z.boolean().default(false) }).strict(),
    output: turnSummarySchema,
  }),
  'chat.turns': defineMethod({
    description: 'The turns of a conversation with their tool calls (for tool-call cards and tokens/cost per turn).',
    input: z.object({ conversation_id: conversationId, limit: z.number().int().min(1).max(500).default(100) }).strict(),
    output: z.object({ turns: z.array(turnSummarySchema.extend({ created_at: z.string(), finished_at: z.string().nullable(), tool_calls: z.array(toolCallSchema) })) }),
  }),
  'chat.compact': defineMethod({
    description: '/compact: summarize the conversation now (after its running turn) with the primary provider; model calls then read the summary and the newest messages. The stored messages stay.',
    input: z.object({ conversation_id: conversationId }).strict(),
    output: z.object({
      /** False when there was nothing to replace (the conversation is already short). */
      compacted: z.boolean(),
      compaction: compactionSchema.nullable(),
    }),
  }),
  'providers.list': defineMethod({
    description: 'Configured model providers (primary first) and, when none is configured, whether a local Ollama answers.',
    input: z.object({}).strict().default({}),
    output: z.object({ providers: z.array(providerSchema), ollama: z.object({ found: z.boolean(), base_url: z.string(), models: z.array(z.string()) }).nullable() }),
  }),
  'providers.models': defineMethod({
    description: "A provider's model list, read from its own API.",
    input: z.object({ name: z.string().min(1) }).strict(),
    output: z.object({ models: z.array(z.string()) }),
  }),
};
