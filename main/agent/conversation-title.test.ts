// Model-written conversation titles through real turns against the scripted model server: the title request
// is made once after the first exchange (non-streamed, no tools, a few tokens), its cleaned text becomes the
// title with a conversation.updated event, a rename made meanwhile wins, and a failing provider keeps the
// first words with one debug line.
import { describe, expect, it } from 'vitest';
import { messagesOf, type RecordedRequest, type Turn } from '../../test/fixtures/model-server/index.js';
import { createConversationStore } from '../store/conversations.js';
import { sanitizeTitle, TITLE_MAX_TOKENS, TITLE_PROMPT_MARKER } from './conversation-title.js';
import { useAgentTestContext } from './test-context.js';
import { createHarness, providerConfig, type Harness } from './test-harness.js';

const ctx = useAgentTestContext();
const FIRST = 'When can I plant tomatoes outside?';
const debugLines: string[] = [];

async function start(extra = ''): Promise<Harness> {
  debugLines.length = 0;
  ctx.harness = await createHarness({
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }], extra),
    capabilities: () => [],
    secrets: { keyring: () => null, env: () => 'k' },
    overrides: { logger: { debug: (message) => void debugLines.push(message), info: () => {}, warn: () => {}, error: () => {} } },
  });
  return ctx.harness;
}

const isTitleRequest = (request: RecordedRequest) => messagesOf(request).some((message) => message.role === 'system' && String(message.content).startsWith(TITLE_PROMPT_MARKER));
const titleRequests = () => ctx.server.requests.filter(isTitleRequest);

/** Chat requests get an answer; title requests get `title` (a turn, or a function deciding one). */
function script(title: Turn | (() => Promise<Turn>)) {
  ctx.server.setScript(async (request) => (isTitleRequest(request) ? (typeof title === 'function' ? title() : title) : { text: 'Tomatoes go out after the last frost.' }));
}

/** A conversation as the window starts it: titled with the first words, source auto. */
function windowConversation(h: Harness): string {
  return createConversationStore(h.db).create(FIRST, 'auto').id;
}

const row = (h: Harness, id: string) => createConversationStore(h.db).get(id);
const titleCalls = (h: Harness) => h.db.all<{ outcome: string; input_tokens: number; output_tokens: number }>("SELECT outcome, input_tokens, output_tokens FROM model_calls WHERE finish_reason = 'title'");

describe('model-written conversation titles', () => {
  it('asks once after the first exchange; the cleaned answer becomes the title and the window hears it', async () => {
    const h = await start();
    script({ text: '"**Tomato planting dates.**"\nSecond line', usage: { inputTokens: 40, outputTokens: 6 } });
    const id = windowConversation(h);
    const before = titleRequests().length;
    expect((await h.agent.send({ conversation_id: id, message: FIRST }).done).status).toBe('completed');
    // The next turn waits in the conversation's queue behind the title request: no sleep needed.
    await h.agent.send({ conversation_id: id, message: 'And peppers?' }).done;

    const requests = titleRequests().slice(before);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request.body.stream).not.toBe(true);
    expect(request.body.tools).toBeUndefined();
    expect(request.body.max_tokens ?? request.body.max_completion_tokens).toBeLessThanOrEqual(TITLE_MAX_TOKENS);
    expect(JSON.stringify(messagesOf(request).at(-1))).toContain(FIRST);
    expect(JSON.stringify(messagesOf(request).at(-1))).toContain('Tomatoes go out after the last frost.');

    expect(row(h, id)).toMatchObject({ title: 'Tomato planting dates', title_source: 'model' });
    expect(h.eventsOf('conversation.updated', id)).toEqual([{ id, title: 'Tomato planting dates' }]);
    // Its cost is recorded like any model call, with the turn whose exchange it named.
    expect(titleCalls(h)).toEqual([{ outcome: 'ok', input_tokens: 40, output_tokens: 6 }]);
  });

  it('a rename made while the title request runs wins', async () => {
    const h = await start();
    let release!: () => void;
    const renamed = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const titleAsked = new Promise<void>((resolve) => (asked = resolve));
    script(async () => {
      asked();
      await renamed;
      return { text: 'Tomato planting dates' };
    });
    const id = windowConversation(h);
    const first = h.agent.send({ conversation_id: id, message: FIRST }).done;
    await titleAsked;
    createConversationStore(h.db).rename(id, 'Garden');
    release();
    await first;
    await h.agent.send({ conversation_id: id, message: 'And peppers?' }).done;
    expect(row(h, id)).toMatchObject({ title: 'Garden', title_source: 'user' });
    expect(h.eventsOf('conversation.updated', id)).toEqual([]);
    expect(debugLines).toContain('conversation was renamed meanwhile; the model title is dropped');
  });

  it('a failing provider keeps the first words, says so once at debug, and the turn is unaffected', async () => {
    const h = await start();
    script({ error: 500 });
    const id = windowConversation(h);
    const before = titleRequests().length;
    const result = await h.agent.send({ conversation_id: id, message: FIRST }).done;
    await h.agent.send({ conversation_id: id, message: 'And peppers?' }).done;
    expect(result).toMatchObject({ status: 'completed', text: 'Tomatoes go out after the last frost.', error: null });
    // No retry: one request.
    expect(titleRequests().length - before).toBe(1);
    expect(row(h, id)).toMatchObject({ title: FIRST, title_source: 'auto' });
    expect(debugLines.filter((line) => line.startsWith('model title'))).toEqual(['model title failed; the first words stay']);
    expect(titleCalls(h)).toMatchObject([{ outcome: 'error' }]);
  });

  it('is not asked with model_titles = false, nor for a conversation someone titled', async () => {
    const off = await start('[fermix_core]\nmodel_titles = false\n');
    script({ text: 'Never used' });
    const before = titleRequests().length;
    const id = windowConversation(off);
    await off.agent.send({ conversation_id: id, message: FIRST }).done;
    await off.agent.send({ conversation_id: id, message: 'And peppers?' }).done;
    expect(row(off, id).title).toBe(FIRST);
    await off.close();

    const on = await start();
    const typed = createConversationStore(on.db).create('Garden plans').id;
    await on.agent.send({ conversation_id: typed, message: FIRST }).done;
    await on.agent.send({ conversation_id: typed, message: 'And peppers?' }).done;
    expect(row(on, typed).title).toBe('Garden plans');
    expect(titleRequests().length).toBe(before);
  });
});

describe('sanitizeTitle', () => {
  it('keeps one plain line of at most 60 characters', () => {
    expect(sanitizeTitle('Title: `Planting` _tomatoes_ outside!')).toBe('Planting tomatoes outside');
    expect(sanitizeTitle('\n\n  «Tomaten pflanzen»  \nmore')).toBe('Tomaten pflanzen');
    expect(sanitizeTitle("'Trip to Lisbon'")).toBe('Trip to Lisbon');
    expect(sanitizeTitle('# Heading\u202e evil')).toBe('Heading evil');
    const long = sanitizeTitle('A very long title that goes on and on well past the sixty character limit');
    expect(long!.length).toBeLessThanOrEqual(60);
    expect(long!.endsWith('…')).toBe(true);
    expect(sanitizeTitle('  ""  ')).toBeNull();
    expect(sanitizeTitle('')).toBeNull();
  });
});
