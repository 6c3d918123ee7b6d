import path from 'node:path';
import { z } from 'zod';
import type { Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { errnoOf, openForRead } from './fs-atomic.js';
import { optionalService, pathContext, servicesOf, stringArg } from './tool-services.js';

/** Used when the channel states no cap: the desktop chat keeps attachments in the local store. */
export const DEFAULT_ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;

const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
  pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown', csv: 'text/csv', json: 'application/json', html: 'text/html',
  zip: 'application/zip', mp3: 'audio/mpeg', ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/opus', wav: 'audio/wav', m4a: 'audio/mp4',
  mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** `scheme://…`, `data:`, `mailto:`: anything that is not a local path (Windows drive letters excepted). */
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|data:|mailto:|javascript:)/i;

function noReplyPort(): FermixError {
  return new FermixError({
    code: 'reply_fn_required',
    message: 'This run has no chat to send a file to (a scheduled job, subagent or CLI call without a channel).',
    hint: 'Mention the file path in your answer instead; the owner can open it from the workspace.',
  });
}

const executeSendAttachment: Executor = async (args, context) => {
  const input = stringArg(args, 'path', 'invalid_path', 'send_attachment').trim();
  if (URL_LIKE.test(input)) {
    throw new FermixError({ code: 'url_not_supported', message: `send_attachment sends local files; ${input.slice(0, 80)} is a URL.`, hint: 'Send the link as text, or download it into the workspace first (web_fetch) and send that file.', data: { path: input } });
  }
  const sink = optionalService(context, 'attachments');
  if (sink === undefined || context.conversationId === undefined) throw noReplyPort();
  const { sandbox } = servicesOf(context, 'sandbox');
  const real = sandbox.policy.checkRead(input, pathContext(context, sandbox)); // sandbox_denied, invalid_path
  const maxBytes = sink.maxBytes ?? DEFAULT_ATTACHMENT_MAX_BYTES;
  const caption = typeof args.caption === 'string' && args.caption !== '' ? args.caption : undefined;
  if (caption !== undefined && sink.maxCaptionChars !== undefined && caption.length > sink.maxCaptionChars) {
    throw new FermixError({ code: 'text_cap_exceeded', message: `The caption is ${caption.length} characters; this chat accepts ${sink.maxCaptionChars}.`, hint: 'Shorten the caption, or send the text as a normal reply.', data: { max: sink.maxCaptionChars } });
  }
  let bytes: Buffer;
  try {
    const { handle, stat } = await openForRead(real, { policy: sandbox.policy, context: pathContext(context, sandbox) });
    try {
      if (stat.size > maxBytes) {
        throw new FermixError({ code: 'byte_cap_exceeded', message: `${real} is ${stat.size} bytes; this chat accepts at most ${maxBytes}.`, hint: 'Compress or split the file, or tell the owner where it is.', data: { size: stat.size, max: maxBytes } });
      }
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    // A folder is "not a regular file" here (reference §4: send_attachment's tags).
    if (error instanceof FermixError && error.code === 'invalid_path') throw notRegular(real);
    if (error instanceof FermixError) throw error;
    if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(errnoOf(error) ?? '')) throw notRegular(real);
    throw error;
  }
  const ext = path.extname(real).slice(1).toLowerCase();
  const filename = typeof args.filename === 'string' && args.filename.trim() !== '' ? path.basename(args.filename.trim()) : path.basename(real);
  const mimeType = typeof args.mime_type === 'string' && args.mime_type !== '' ? args.mime_type : (MIME_BY_EXT[ext] ?? 'application/octet-stream');
  const kind = (typeof args.kind === 'string' ? args.kind : 'document') as 'image' | 'document' | 'audio' | 'video' | 'voice';
  const sent = await sink.send({ conversationId: context.conversationId, kind, path: real, filename, mimeType, bytes, caption });
  return {
    text: `Sent ${filename} (${bytes.length} bytes, ${mimeType}) to the chat as ${kind === 'image' ? 'an image' : `a ${kind}`}.`,
    data: { id: sent.id, path: real, filename, mime_type: mimeType, bytes: bytes.length, kind },
  };
};

function notRegular(real: string): FermixError {
  return new FermixError({ code: 'not_regular_file', message: `${real} is missing or not a regular file.`, hint: 'Send an existing file (not a folder); glob_search finds it by name.', data: { path: real } });
}

export const sendAttachmentInput = lazySchema(() =>
  z.object({
    path: z.string().min(1).describe('Local file to send; URLs are not fetched (send a link as text instead).'),
    kind: z
      .enum(['image', 'document', 'audio', 'video', 'voice'])
      .default('document')
      .describe('How the channel should present the file (default document).'),
    caption: z.string().optional().describe('Text sent with the file.'),
    filename: z.string().optional().describe('Display file name (default: the local file name).'),
    mime_type: z.string().optional().describe('MIME type, for channels that accept one.'),
  }),
);

export const sendAttachment = defineBuiltin({
  name: 'send_attachment',
  description: 'Send a local file through the active channel reply port. URLs are not fetched.',
  policy_class: 'read_only',
  category: 'channel',
  input: sendAttachmentInput,
  when_to_use: 'Hand the owner a file that already exists in the sandbox (a report, an image, a recording).',
  examples: [
    { args: { path: 'reports/march-summary.pdf', caption: 'March summary' }, note: 'send a document' },
    { args: { path: 'media/fox.png', kind: 'image' }, note: 'send an image' },
  ],
  failure_modes: [
    { tag: 'reply_fn_required', description: 'this run has no active channel to reply to' },
    { tag: 'url_not_supported', description: 'path is a URL; send links as text' },
    { tag: 'sandbox_denied', description: 'the path is outside the sandbox roots' },
    { tag: 'not_regular_file', description: 'the path is missing or not a regular file' },
    { tag: 'byte_cap_exceeded', description: 'the file is larger than the channel accepts' },
    { tag: 'rate_limited', description: 'the channel rate-limited the send (retry_after says when)' },
    { tag: 'text_cap_exceeded', description: 'the caption is longer than the channel accepts' },
  ],
  scope_requirements: ['fs:read', 'channel:send'],
  executor: executeSendAttachment,
});
