import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const sendAttachmentInput = z.object({
  path: z.string().min(1).describe('Local file to send; URLs are not fetched (send a link as text instead).'),
  kind: z
    .enum(['image', 'document', 'audio', 'video', 'voice'])
    .default('document')
    .describe('How the channel should present the file (default document).'),
  caption: z.string().optional().describe('Text sent with the file.'),
  filename: z.string().optional().describe('Display file name (default: the local file name).'),
  mime_type: z.string().optional().describe('MIME type, for channels that accept one.'),
});

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
});
