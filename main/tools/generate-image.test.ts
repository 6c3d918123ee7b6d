// generate_image against local fakes of each backend's documented API (test/fixtures/image-backends),
// through Net.Guard with the test-only loopback policy, a real sandbox, and a real attachment port.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_KEYS, PNG_1X1, startImageFakes, type ImageFakes } from '../../test/fixtures/image-backends/server.js';
import { createTestPolicy } from '../net/test-policy.js';
import { generateImage, type ImageGenerationService } from './generate-image.js';
import { sniffImageType, type ImageBackend } from './image-backends/backends.js';
import type { OutgoingAttachment } from './tool-services.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fakes: ImageFakes;
let fixture: ToolFixture;
const sent: OutgoingAttachment[] = [];
beforeAll(async () => {
  fakes = await startImageFakes();
});
afterAll(() => fakes.close());
beforeEach(() => {
  fixture = makeToolFixture('fermix-image-');
  sent.length = 0;
});
afterEach(() => fixture.dispose());

const allKeys: Record<string, string> = { OPENAI_API_KEY: FAKE_KEYS.openai, XAI_API_KEY: FAKE_KEYS.xai, GEMINI_API_KEY: FAKE_KEYS.google, openai_codex_access_token: FAKE_KEYS.codex };

function context(backend: ImageBackend | undefined, keys: Record<string, string> = allKeys, extra: Record<string, unknown> = {}) {
  const imageGeneration: ImageGenerationService = {
    settings: () => ({ backend }),
    credential: (name) => keys[name],
    baseUrls: { openai: `${fakes.url}/openai`, xai: `${fakes.url}/xai`, google: `${fakes.url}/google`, openai_codex: `${fakes.url}/codex` },
  };
  return fixture.context({
    extra: {
      imageGeneration,
      net: { policy: createTestPolicy() },
      attachments: { send: async (attachment: OutgoingAttachment) => (sent.push(attachment), {}) },
      ...extra,
    },
  });
}

describe('generate_image', () => {
  it.each(['openai', 'xai', 'google', 'openai_codex'] as const)('generates with %s: the PNG lands under media/, reaches the model as an image and the chat as an attachment', async (backend) => {
    const before = fakes.requests.length;
    const result = await run(generateImage.executor, { prompt: 'a watercolor fox' }, context(backend));
    const data = result.data as { path: string; backend: string; bytes: number };
    expect(data.backend).toBe(backend);
    expect(data.path.startsWith(join(fixture.workspace, 'media'))).toBe(true);
    expect(readFileSync(data.path)).toEqual(PNG_1X1);
    // The extension follows the bytes, whatever the backend declares (xAI's default is JPEG).
    expect(data.path.endsWith('.png')).toBe(true);
    expect(Buffer.from(result.images![0].base64, 'base64')).toEqual(PNG_1X1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ conversationId: 'conv-1', kind: 'image', path: data.path });
    const request = fakes.requests.slice(before).at(-1)!;
    if (backend === 'google') expect(request.json.contents[0].parts[0].text).toBe('a watercolor fox');
    else if (backend === 'openai_codex') expect(request.json.tools[0].type).toBe('image_generation');
    else expect(request.json.prompt).toBe('a watercolor fox');
  });

  it('edits with openai as multipart with the source image and mask read from the sandbox', async () => {
    writeFileSync(join(fixture.workspace, 'src.png'), PNG_1X1);
    writeFileSync(join(fixture.workspace, 'mask.png'), PNG_1X1);
    const before = fakes.requests.length;
    const result = await run(generateImage.executor, { prompt: 'stormy sky', operation: 'edit', input_image: 'src.png', mask: 'mask.png' }, context('openai'));
    expect(result.text).toMatch(/edited with openai/);
    const request = fakes.requests.slice(before).at(-1)!;
    expect(request.path).toBe('/openai/v1/images/edits');
    const body = request.body.toString('latin1');
    expect(body).toContain('name="image"; filename="src.png"');
    expect(body).toContain('name="mask"; filename="mask.png"');
  });

  it('refuses edit on xai and masks on google loudly, before any request', async () => {
    writeFileSync(join(fixture.workspace, 'src.png'), PNG_1X1);
    const before = fakes.requests.length;
    expect((await failureOf(run(generateImage.executor, { prompt: 'x', operation: 'edit', input_image: 'src.png' }, context('xai')))).code).toBe('edit_unsupported');
    expect((await failureOf(run(generateImage.executor, { prompt: 'x', operation: 'edit', input_image: 'src.png', mask: 'src.png' }, context('google')))).code).toBe('mask_unsupported');
    expect(fakes.requests.length).toBe(before);
  });

  it('openai_codex without a login fails auth_failed and never falls back to the OpenAI key', async () => {
    const before = fakes.requests.length;
    const error = await failureOf(run(generateImage.executor, { prompt: 'x' }, context('openai_codex', { OPENAI_API_KEY: FAKE_KEYS.openai })));
    expect(error.code).toBe('auth_failed');
    expect(error.message).toMatch(/No ChatGPT\/Codex login/);
    expect(error.hint).toMatch(/no ChatGPT\/Codex sign-in/);
    expect(error.hint).toContain('backend = "openai"');
    expect(error.hint).toContain('`fermix secrets set OPENAI_API_KEY`');
    expect(error.hint).not.toMatch(/fermix auth\b/);
    expect(fakes.requests.length).toBe(before);
  });

  it('maps missing configuration, a wrong key, a rate limit and a sandbox escape to their tags', async () => {
    expect((await failureOf(run(generateImage.executor, { prompt: 'x' }, context(undefined)))).code).toBe('not_configured');
    expect((await failureOf(run(generateImage.executor, { prompt: 'x' }, context('google', { GEMINI_API_KEY: 'wrong' })))).code).toBe('auth_failed');
    fakes.failNext(429);
    expect((await failureOf(run(generateImage.executor, { prompt: 'x' }, context('openai')))).code).toBe('rate_limited');
    fakes.failNext(500);
    expect((await failureOf(run(generateImage.executor, { prompt: 'x' }, context('xai')))).code).toBe('provider_error');
    writeFileSync(join(fixture.outside, 'secret.png'), PNG_1X1);
    expect((await failureOf(run(generateImage.executor, { prompt: 'x', operation: 'edit', input_image: join(fixture.outside, 'secret.png') }, context('openai')))).code).toBe('sandbox_denied');
    expect(existsSync(join(fixture.workspace, 'media'))).toBe(false);
  });

  it('goes through Net.Guard: without the test policy, the loopback fake is blocked_url', async () => {
    const error = await failureOf(run(generateImage.executor, { prompt: 'x' }, context('openai', allKeys, { net: {} })));
    expect(error.code).toBe('blocked_url');
  });

  it('reads the media type from the image bytes', () => {
    expect(sniffImageType(PNG_1X1)).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('not an image'))).toBeUndefined();
  });
});
