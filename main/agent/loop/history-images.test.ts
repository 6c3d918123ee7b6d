// The model sees only the newest 3 tool-result images of its window (browser and computer_use together):
// a real turn of 5 screenshot calls through the real AI SDK clients, checked in what the scripted model
// server RECEIVED, over both wire formats; older results keep their text and a placeholder.
import { describe, expect, it } from 'vitest';
import { useAgentTestContext } from '../test-context.js';
import { toolResultsOf } from '../../../test/fixtures/model-server/index.js';
import { encodePng } from '../../computer/png.js';
import { createHarness, providerConfig, testTool } from '../test-harness.js';
import { MODEL_TOOL_IMAGES_KEPT, SCREENSHOT_OMITTED, toModelMessages } from './history.js';

const ctx = useAgentTestContext();

/** A distinct 1×1 PNG per shot, so the test can tell which screenshots reached the model. */
const shot = (n: number) => encodePng({ width: 1, height: 1, data: Buffer.from([n * 40, 0, 0]) }).toString('base64');

/** Every image's base64 anywhere in a request body: OpenAI `image_url` data URLs, Anthropic `image` blocks. */
function imagesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const each of value) imagesIn(each, out);
  else if (value && typeof value === 'object') {
    const part = value as { type?: string; image_url?: { url: string }; source?: { data: string } };
    if (part.type === 'image_url' && part.image_url) out.push(part.image_url.url.replace(/^data:image\/png;base64,/, ''));
    else if (part.type === 'image' && part.source) out.push(part.source.data);
    else for (const each of Object.values(value)) imagesIn(each, out);
  }
  return out;
}

describe.each(['openai', 'anthropic'] as const)('tool-result images sent to %s', (type) => {
  it('after 5 screenshot calls in one turn, the last request carries only the newest 3 images', async () => {
    let taken = 0;
    const screenshot = (name: string) => testTool(name, { run: async () => ({ text: `Screenshot ${(taken += 1)}.`, images: [{ mimeType: 'image/png', base64: shot(taken) }] }) });
    const h = await createHarness({
      config: providerConfig([{ name: 'main', type, baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'TEST_KEY' }]),
      capabilities: () => [screenshot('browser'), screenshot('computer_use')],
      secrets: { keyring: () => null, env: (name) => (name === 'TEST_KEY' ? 'sk-test' : undefined) },
    });
    ctx.harness = h;
    // One call per model request, alternating the two tools, until five results are in.
    ctx.server.setScript((req) => {
      const results = toolResultsOf(req).length;
      return results >= 5 ? { text: 'seen them all' } : { toolCalls: [{ name: results % 2 === 0 ? 'browser' : 'computer_use', arguments: {} }] };
    });
    const before = ctx.server.requests.length;
    const result = await h.agent.send({ message: 'take five screenshots' }).done;
    expect(result.error).toBeNull();
    expect(result.status).toBe('completed');

    const last = ctx.server.requests.slice(before).at(-1)!;
    expect(imagesIn(last.body.messages)).toEqual([shot(3), shot(4), shot(5)]);
    const results = toolResultsOf(last);
    // Every call still has its result (the pairing both providers check); the first two say why no image.
    expect(results.map((each) => each.content.includes(SCREENSHOT_OMITTED))).toEqual([true, true, false, false, false]);
    expect(results[0].content).toContain('Screenshot 1.');
    // The history kept every image: the cut is in what is sent, not in what is stored.
    expect(h.agent.store.history(result.conversation_id).flatMap((message) => (message.role === 'tool' ? message.images ?? [] : []))).toHaveLength(5);
  });
});

describe('toModelMessages', () => {
  it('keeps the newest images of a result that returned several, and nothing is cut under the limit', () => {
    const image = (n: number) => ({ mimeType: 'image/png', base64: `img${n}` });
    const call = (id: string) => ({ role: 'assistant' as const, text: '', toolCalls: [{ id, name: 'browser', args: {} }] });
    const messages = [
      { role: 'user' as const, text: 'look' },
      call('a'),
      { role: 'tool' as const, callId: 'a', name: 'browser', text: 'two shots', isError: false, images: [image(1), image(2)] },
      call('b'),
      { role: 'tool' as const, callId: 'b', name: 'browser', text: 'two more', isError: false, images: [image(3), image(4)] },
    ];
    const sent = (list: typeof messages) => JSON.stringify(toModelMessages(list, { imagesInToolResults: true, acceptsImages: true, providerType: 'anthropic' }));
    const all = sent(messages);
    expect(['img1', 'img2', 'img3', 'img4'].filter((each) => all.includes(each))).toEqual(['img2', 'img3', 'img4']);
    expect(all.split(SCREENSHOT_OMITTED)).toHaveLength(2);
    expect(MODEL_TOOL_IMAGES_KEPT).toBe(3);
    const short = sent(messages.slice(0, 3));
    expect(short).toContain('img1');
    expect(short).not.toContain(SCREENSHOT_OMITTED);
  });
});
