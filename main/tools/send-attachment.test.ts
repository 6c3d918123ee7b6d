import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { sendAttachment } from './send-attachment.js';
import type { AttachmentSink, OutgoingAttachment } from './tool-services.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
const sent: OutgoingAttachment[] = [];
const sink: AttachmentSink = {
  maxBytes: 1024,
  maxCaptionChars: 20,
  send: async (attachment) => {
    sent.push(attachment);
    return { id: `att-${sent.length}` };
  },
};

beforeAll(() => {
  fx = makeToolFixture('fermix-attach-');
  mkdirSync(path.join(fx.workspace, 'media'), { recursive: true });
  writeFileSync(path.join(fx.workspace, 'media', 'fox.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(path.join(fx.workspace, 'big.bin'), Buffer.alloc(2048));
  symlinkSync(path.join(fx.home, '.ssh', 'id_rsa'), path.join(fx.workspace, 'key.png'));
});
afterAll(async () => fx?.dispose());

const send = (args: Record<string, unknown>, extra: Record<string, unknown> = { attachments: sink }) => run(sendAttachment.executor, args, fx.context({ extra }));

describe('send_attachment executor', () => {
  it('hands the sink the bytes of a sandboxed file, with name, MIME type, kind and caption', async () => {
    const result = await send({ path: 'media/fox.png', kind: 'image', caption: 'a fox' });
    expect(result.text).toBe('Sent fox.png (4 bytes, image/png) to the chat as an image.');
    expect(result.data).toMatchObject({ id: 'att-1', kind: 'image' });
    expect(sent.at(-1)).toMatchObject({ conversationId: 'conv-1', kind: 'image', filename: 'fox.png', mimeType: 'image/png', caption: 'a fox', path: path.join(fx.workspace, 'media', 'fox.png') });
    expect(sent.at(-1)?.bytes).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('uses filename and mime_type when given, and defaults to a document', async () => {
    await send({ path: 'media/fox.png', filename: 'x/../renamed.dat', mime_type: 'application/x-test' });
    expect(sent.at(-1)).toMatchObject({ kind: 'document', filename: 'renamed.dat', mimeType: 'application/x-test' });
  });

  it('refuses URLs with url_not_supported', async () => {
    for (const url of ['https://example.com/a.png', 'file:///etc/passwd', 'data:image/png;base64,AAAA']) {
      expect((await failureOf(send({ path: url }))).code, url).toBe('url_not_supported');
    }
  });

  it('refuses paths outside the sandbox, and protected files behind a link', async () => {
    expect((await failureOf(send({ path: path.join(fx.outside, 'notes.txt') }))).code).toBe('sandbox_denied');
    expect((await failureOf(send({ path: 'key.png' }))).code).toBe('sandbox_denied');
  });

  it('fails not_regular_file for folders and missing files', async () => {
    expect((await failureOf(send({ path: 'media' }))).code).toBe('not_regular_file');
    expect((await failureOf(send({ path: 'missing.pdf' }))).code).toBe('not_regular_file');
  });

  it('enforces the channel caps: byte_cap_exceeded, text_cap_exceeded', async () => {
    expect((await failureOf(send({ path: 'big.bin' }))).code).toBe('byte_cap_exceeded');
    expect((await failureOf(send({ path: 'media/fox.png', caption: 'x'.repeat(21) }))).code).toBe('text_cap_exceeded');
  });

  it('fails reply_fn_required without a sink, and passes the channel\'s rate_limited through', async () => {
    expect((await failureOf(send({ path: 'media/fox.png' }, {}))).code).toBe('reply_fn_required');
    const limited: AttachmentSink = { send: async () => { throw new FermixError({ code: 'rate_limited', message: 'slow down', data: { retry_after: 5 } }); } };
    const error = await failureOf(send({ path: 'media/fox.png' }, { attachments: limited }));
    expect(error.code).toBe('rate_limited');
    expect(error.data).toEqual({ retry_after: 5 });
  });
});
