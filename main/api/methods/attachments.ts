import { z } from 'zod';
import { defineMethod } from '../define.js';
import { MAX_UPLOAD_BASE64_CHARS } from '../attachment-rules.js';

/** Attachment ids are UUIDs the daemon chose; the pattern keeps anything path-like out of a lookup. */
export const attachmentId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'an attachment id (letters, digits and -)');

/** What a message shows of a file: enough for a chip, never the bytes. */
export const attachmentRefSchema = z.object({
  id: z.string(),
  filename: z.string(),
  mime_type: z.string(),
  bytes: z.number().int(),
});

export const attachmentInfoSchema = attachmentRefSchema.extend({
  conversation_id: z.string(),
  /** in: the person attached it; out: the agent sent it (send_attachment). */
  direction: z.enum(['in', 'out']),
  /** The turn whose message carries it; null while an upload waits for its chat.send. */
  turn_id: z.string().nullable(),
  created_at: z.string(),
});

const conversationId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'letters, digits, _ . : - (at most 128)');

export const attachmentMethods = {
  'attachments.upload': defineMethod({
    description: 'Store a file the person attaches to their next message in a conversation; pass the returned id in chat.send attachment_ids. At most 20 MB decoded. Errors: attachment_too_large, attachment_invalid, conversation_not_found.',
    input: z.object({
      conversation_id: conversationId,
      /** The file's own name; anything before a / or \ is dropped. */
      filename: z.string().min(1).max(1000),
      /** The browser's File.type; empty or unknown means application/octet-stream. */
      mime_type: z.string().max(200).default('application/octet-stream'),
      base64: z.string().max(MAX_UPLOAD_BASE64_CHARS),
    }).strict(),
    output: attachmentInfoSchema,
  }),
  'attachments.get': defineMethod({
    description: 'One stored attachment (sent by the person or by the agent) with its bytes as base64. Errors: attachment_not_found, attachment_too_large (over the command line socket).',
    input: z.object({ id: attachmentId }).strict(),
    output: attachmentInfoSchema.extend({ base64: z.string() }),
  }),
  'attachments.list': defineMethod({
    description: "A conversation's attachments, both directions, oldest first (no bytes).",
    input: z.object({ conversation_id: conversationId }).strict(),
    output: z.object({ attachments: z.array(attachmentInfoSchema) }),
  }),
  'attachments.discard': defineMethod({
    description: 'Delete an upload that no message carries yet (the person removed it, or its send failed). Sent attachments stay.',
    input: z.object({ id: attachmentId }).strict(),
    output: z.object({ discarded: z.boolean() }),
  }),
};
