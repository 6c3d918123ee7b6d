// chat.send with attachments end to end: attachments.upload → chat.send attachment_ids → the turn → the
// real AI SDK provider clients → the scripted model server, which records what it RECEIVED. Plus the
// refusals of chat.send (nothing stored) and chat.history showing the files under the message.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentTestContext } from './test-context.js';
import { messagesOf } from '../../test/fixtures/model-server/index.js';
import { createDispatcher } from '../api/dispatcher.js';
import { createAttachmentHandlers } from '../daemon/attachment-handlers.js';
import { createChatHistoryHandlers } from '../daemon/chat-history-handlers.js';
import { createAttachmentStore } from '../store/attachments.js';
import { createChatHandlers } from './chat-handlers.js';
import { createHarness, providerConfig } from './test-harness.js';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF_BASE64 = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64');
const NOTES_BASE64 = Buffer.from('Shopping: milk, eggs, coffee').toString('base64');

const ctx = useAgentTestContext();

async function start(type: 'openai' | 'anthropic' | 'openai-compatible', model = 'fermix-test-model') {
  const home = mkdtempSync(join(tmpdir(), 'fermix-agent-attach-'));
  const h = await createHarness({
    home,
    config: providerConfig([{ name: 'main', type, baseUrl: ctx.server.baseUrlOpenAI, primary: true, model, keyEnv: type === 'openai-compatible' ? undefined : 'TEST_KEY' }]),
    capabilities: () => [],
    secrets: { keyring: () => null, env: (name) => (name === 'TEST_KEY' ? 'sk-test' : undefined) },
    overrides: { fermixHome: home },
  });
  ctx.harness = h;
  const dispatcher = createDispatcher({
    ...createChatHandlers(h.agent, { events: h.bus }),
    ...createChatHistoryHandlers({ db: h.db }),
    ...createAttachmentHandlers({ store: createAttachmentStore({ db: h.db, home }), db: h.db }),
  });
  const call = async (method: string, input: unknown): Promise<any> => {
    const answer = await dispatcher.dispatch(method, input, { transport: 'in-process', trust: 'operator' });
    if (!answer.ok) throw Object.assign(new Error(answer.error.message), answer.error);
    return answer.result;
  };
  const failure = async (method: string, input: unknown) => {
    const answer = await dispatcher.dispatch(method, input, { transport: 'in-process', trust: 'operator' });
    if (answer.ok) throw new Error(`${method} was expected to fail`);
    return answer.error;
  };
  h.agent.store.ensureConversation('c1', 'Files');
  const upload = (filename: string, mime_type: string, base64: string, conversation_id = 'c1') => call('attachments.upload', { conversation_id, filename, mime_type, base64 });
  return { h, home, call, failure, upload };
}

const completions = () => ctx.server.requests.filter((r) => r.vendor !== 'other');
const lastUser = () => messagesOf(completions().at(-1)!).filter((m) => m.role === 'user').at(-1);

describe('a message with attachments reaches the model', () => {
  it('over openai: the image as image_url, the PDF as a file, the text file inlined; chat.history lists them', async () => {
    const { call, upload } = await start('openai');
    ctx.server.setScript([{ text: 'Got them.' }]);
    const image = await upload('pixel.png', 'image/png', PNG_BASE64);
    const pdf = await upload('report.pdf', 'application/pdf', PDF_BASE64);
    const notes = await upload('notes.txt', 'text/plain', NOTES_BASE64);
    expect(image).toMatchObject({ filename: 'pixel.png', mime_type: 'image/png', bytes: 70, direction: 'in', turn_id: null });
    const sent = await call('chat.send', { conversation_id: 'c1', message: 'Look at these', attachment_ids: [image.id, pdf.id, notes.id], wait: true });
    expect(sent.turn.status).toBe('completed');
    const content = lastUser().content as any[];
    expect(content.find((part) => part.type === 'image_url').image_url.url).toBe(`data:image/png;base64,${PNG_BASE64}`);
    expect(content.find((part) => part.type === 'file').file).toMatchObject({ filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF_BASE64}` });
    expect(content.map((part) => part.text ?? '').join('\n')).toContain('<attached_file name="notes.txt" type="text/plain" size="28 B">\nShopping: milk, eggs, coffee');
    expect(content.at(-1)).toEqual({ type: 'text', text: 'Look at these' });

    const history = await call('chat.history', { conversation_id: 'c1' });
    const user = history.messages.find((m: any) => m.role === 'user');
    expect(user.attachments).toEqual([
      { id: image.id, filename: 'pixel.png', mime_type: 'image/png', bytes: 70 },
      { id: pdf.id, filename: 'report.pdf', mime_type: 'application/pdf', bytes: 45 },
      { id: notes.id, filename: 'notes.txt', mime_type: 'text/plain', bytes: 28 },
    ]);
    expect(history.messages.find((m: any) => m.role === 'assistant').attachments).toBeUndefined();
    const fetched = await call('attachments.get', { id: notes.id });
    expect(Buffer.from(fetched.base64, 'base64').toString()).toBe('Shopping: milk, eggs, coffee');
    expect(fetched).toMatchObject({ direction: 'in', turn_id: sent.turn_id });
    expect(fetched.path).toBeUndefined(); // the path on disk is never handed out
  });

  it('over anthropic: an image block and a document block', async () => {
    const { call, upload } = await start('anthropic');
    ctx.server.setScript([{ text: 'Seen.' }]);
    const image = await upload('pixel.png', 'image/png', PNG_BASE64);
    const pdf = await upload('report.pdf', 'application/pdf', PDF_BASE64);
    await call('chat.send', { conversation_id: 'c1', message: '', attachment_ids: [image.id, pdf.id], wait: true });
    const content = lastUser().content as any[];
    expect(content.find((part) => part.type === 'image').source).toEqual({ type: 'base64', media_type: 'image/png', data: PNG_BASE64 });
    expect(content.find((part) => part.type === 'document').source).toMatchObject({ type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 });
  });

  it('over an OpenAI-compatible model without vision: a note instead of the image; a queued turn keeps its files', async () => {
    const { call, upload } = await start('openai-compatible', 'qwen3');
    ctx.server.setScript([{ text: 'first', delayMs: 200, chunks: 3 }, { text: 'second' }]);
    const image = await upload('pixel.png', 'image/png', PNG_BASE64);
    const notes = await upload('notes.txt', 'text/plain', NOTES_BASE64);
    await call('chat.send', { conversation_id: 'c1', message: 'one', attachment_ids: [image.id] });
    // Queued behind the first turn: its attachments travel in the turn's stored options.
    const second = await call('chat.send', { conversation_id: 'c1', message: 'two', attachment_ids: [notes.id] });
    expect(second.position).toBe(1);
    await call('chat.turn', { turn_id: second.turn_id, wait: true });
    const [firstRequest] = completions().slice(-2);
    const firstUser = messagesOf(firstRequest).filter((m) => m.role === 'user').at(-1);
    expect(JSON.stringify(firstUser)).toContain('one');
    expect(JSON.stringify(firstUser)).toContain('[Attached image \\"pixel.png\\" (image/png, 70 B) was not sent: this model does not accept images.');
    expect(JSON.stringify(firstUser)).not.toContain(PNG_BASE64);
    expect(JSON.stringify(lastUser())).toContain('Shopping: milk, eggs, coffee');
  });
});

describe('chat.send refuses bad attachment lists and stores nothing', () => {
  it('too many, unknown, foreign and already-sent ids, with code, message and hint', async () => {
    const { h, home, call, failure, upload } = await start('openai');
    const turnsBefore = h.agent.store.listTurns('c1').length;
    const ids = [];
    for (let index = 0; index < 11; index += 1) ids.push((await upload(`f${index}.txt`, 'text/plain', NOTES_BASE64)).id);
    expect(await failure('chat.send', { conversation_id: 'c1', message: 'hi', attachment_ids: ids })).toMatchObject({
      code: 'attachment_too_many',
      message: 'A message can carry at most 10 files; this one has 11.',
      hint: 'Remove 1 of them and send the rest in another message.',
    });
    const unknown = await failure('chat.send', { conversation_id: 'c1', message: 'hi', attachment_ids: ['0000-unknown'] });
    expect(unknown).toMatchObject({ code: 'attachment_not_found', message: 'No attachment with id 0000-unknown; it was never uploaded, or it was discarded.' });
    expect(unknown.hint).toMatch(/attachments\.list|attach the file again/i);
    // A new conversation cannot take another conversation's upload, and no conversation is created.
    const conversationsBefore = h.db.all('SELECT id FROM conversations').length;
    expect((await failure('chat.send', { message: 'hi', attachment_ids: [ids[0]] })).code).toBe('attachment_invalid');
    expect(h.db.all('SELECT id FROM conversations')).toHaveLength(conversationsBefore);
    expect(h.agent.store.listTurns('c1')).toHaveLength(turnsBefore);
    expect((await failure('chat.send', { conversation_id: 'c1', message: '' })).code).toBe('invalid_input');

    ctx.server.setScript([{ text: 'ok' }]);
    await call('chat.send', { conversation_id: 'c1', message: 'one file', attachment_ids: [ids[0]], wait: true });
    const again = await failure('chat.send', { conversation_id: 'c1', message: 'same file', attachment_ids: [ids[0]] });
    expect(again.message).toBe(`Attachment "f0.txt" (${ids[0]}) already went with an earlier message.`);
    expect(h.agent.store.listTurns('c1')).toHaveLength(turnsBefore + 1);
    // The other ten are still staged (swept after a day); discarding one removes its file.
    expect(await call('attachments.discard', { id: ids[1] })).toEqual({ discarded: true });
    expect(await call('attachments.discard', { id: ids[0] })).toEqual({ discarded: false });
    expect(readdirSync(join(home, 'attachments', 'c1'))).toHaveLength(10);
  });

  it('uploads: too large, bad base64, traversal names, unknown conversation, and unknown ids on get', async () => {
    const { home, call, failure, upload } = await start('openai');
    const big = 'A'.repeat(Math.ceil((20 * 1024 * 1024 + 3) / 3) * 4);
    expect(await failure('attachments.upload', { conversation_id: 'c1', filename: 'movie.mp4', mime_type: 'video/mp4', base64: big })).toMatchObject({
      code: 'attachment_too_large',
      message: '"movie.mp4" is 20,971,524 bytes; a chat attachment can be at most 20 MB.',
    });
    expect((await failure('attachments.upload', { conversation_id: 'c1', filename: 'a.txt', base64: '%%%%' })).message).toBe('"a.txt" did not arrive as valid base64.');
    expect((await failure('attachments.upload', { conversation_id: 'nope', filename: 'a.txt', base64: NOTES_BASE64 })).code).toBe('conversation_not_found');
    expect((await failure('attachments.upload', { conversation_id: 'c1', filename: '../..', base64: NOTES_BASE64 })).code).toBe('attachment_invalid');
    // Nothing was written by the refusals.
    expect(readdirSync(home)).not.toContain('attachments');
    const sneaky = await upload('../../x', 'text/plain', NOTES_BASE64);
    expect(sneaky.filename).toBe('x');
    expect(readdirSync(join(home, 'attachments', 'c1'))).toEqual([`${sneaky.id}-x`]);
    expect(await failure('attachments.get', { id: 'no-such-id' })).toMatchObject({ code: 'attachment_not_found', message: 'No attachment with id no-such-id.' });
    expect((await failure('attachments.get', { id: '../fermix.db' })).code).toBe('invalid_input');
    expect((await call('attachments.list', { conversation_id: 'c1' })).attachments.map((a: any) => a.filename)).toEqual(['x']);
  });
});
