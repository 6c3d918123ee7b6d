/**
 * generate_image's four backends, each speaking its vendor's documented API through Net.Guard:
 *   openai        POST /v1/images/generations (JSON) and /v1/images/edits (multipart), b64_json
 *   xai           POST /v1/images/generations (OpenAI-compatible), b64_json; no edits
 *   google        POST /v1beta/models/{model}:generateContent, inline base64 image parts; no masks
 *   openai_codex  the ChatGPT/Codex login's Responses endpoint with the image_generation tool
 * Base URLs are the vendors'; only the test composition replaces them (with a loopback Net policy from
 * createTestPolicy), never config.toml.
 *
 * Where each shape comes from (December 2026; the OpenAI guide and the Gemini API reference were read
 * directly, the other pages through SDK docs and clients that cite them):
 *   openai        https://developers.openai.com/api/docs/guides/image-generation (Image API generations and
 *                 edits; gpt-image models answer b64_json by default and take no response_format; `url` and
 *                 response_format are dall-e only) and https://platform.openai.com/docs/api-reference/images/edits
 *                 (multipart: image, mask, prompt, model, n, size)
 *   xai           https://docs.x.ai/docs/guides/image-generation (OpenAI-compatible /v1/images/generations with
 *                 grok-2-image; response_format b64_json; no size; the image is JPEG, newer answers name mime_type)
 *   google        https://ai.google.dev/api (POST /v1beta/models/{model}:generateContent, x-goog-api-key header)
 *                 and https://ai.google.dev/gemini-api/docs/image-generation (generationConfig.responseModalities
 *                 TEXT + IMAGE; the image comes back as an inlineData part)
 *   openai_codex  https://developers.openai.com/api/docs/guides/image-generation (Responses API, built-in
 *                 image_generation tool; the output item image_generation_call carries the base64 `result`)
 * The media type is read from the bytes (PNG, JPEG, WebP, GIF signatures) before any declared one: the
 * file's extension must match what is in it.
 */
import { FermixError } from '../../core/errors.js';
import { guardedFetch, type GuardedFetchOptions, type GuardedResponse } from '../../net/index.js';

export const IMAGE_BACKENDS = ['openai', 'xai', 'google', 'openai_codex'] as const;
export type ImageBackend = (typeof IMAGE_BACKENDS)[number];

export const DEFAULT_BASE_URLS: Record<ImageBackend, string> = {
  openai: 'https://api.openai.com',
  xai: 'https://api.x.ai',
  google: 'https://generativelanguage.googleapis.com',
  openai_codex: 'https://chatgpt.com/backend-api/codex',
};
export const DEFAULT_MODELS: Record<ImageBackend, string> = { openai: 'gpt-image-1', xai: 'grok-2-image', google: 'gemini-2.5-flash-image', openai_codex: 'gpt-5' };
/** Reference §6: image generation requests get 300,000 ms. */
export const IMAGE_TIMEOUT_MS = 300_000;
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface ImageFile {
  bytes: Buffer;
  mimeType: string;
  filename: string;
}

export interface ImageRequest {
  backend: ImageBackend;
  operation: 'generate' | 'edit';
  prompt: string;
  model: string;
  size?: string;
  image?: ImageFile;
  mask?: ImageFile;
  /** The API key, or for openai_codex the login's access token. */
  credential: string;
  baseUrl: string;
  net: Pick<GuardedFetchOptions, 'policy' | 'lookup' | 'ca' | 'userAgent' | 'signal'>;
}

export interface GeneratedImage {
  bytes: Buffer;
  mimeType: string;
  /** The provider's rewritten prompt, when it returns one. */
  revisedPrompt?: string;
}

function failure(code: string, message: string, hint: string, data?: Record<string, unknown>): FermixError {
  return new FermixError({ code, message, hint, data });
}

/** HTTP status → the tool's failure tags (auth_failed, rate_limited, provider_error). */
function checkStatus(backend: ImageBackend, response: GuardedResponse): void {
  if (response.status >= 200 && response.status < 300) return;
  const detail = response.body.toString('utf8').slice(0, 300);
  if (response.status === 401 || response.status === 403) {
    throw failure('auth_failed', `The ${backend} image backend refused the credentials (HTTP ${response.status}).`, backend === 'openai_codex' ? CODEX_NO_SIGN_IN_HINT : `Set a valid key with \`fermix secrets set ${KEY_NAMES[backend][0]}\` (or the ${KEY_NAMES[backend][0]} environment variable).`, { status: response.status });
  }
  if (response.status === 429) {
    throw failure('rate_limited', `The ${backend} image backend is rate limiting requests (HTTP 429).`, 'Wait a minute and ask again.', { status: 429, retry_after: response.headers['retry-after'] ?? null });
  }
  throw failure('provider_error', `The ${backend} image backend answered HTTP ${response.status}: ${detail || 'no details'}.`, 'Check the prompt, size and model, or try again later.', { status: response.status });
}

function parseJson(backend: ImageBackend, response: GuardedResponse): any {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw failure('provider_error', `The ${backend} image backend answered with something that is not JSON.`, 'Try again later; if it persists, choose another backend in [fermix_core.tools.generate_image].');
  }
}

/** The image type its first bytes say, or undefined for anything else. */
export function sniffImageType(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  return undefined;
}

function decoded(backend: ImageBackend, base64: unknown, mimeType = 'image/png', revisedPrompt?: unknown): GeneratedImage {
  if (typeof base64 !== 'string' || base64 === '') throw failure('provider_error', `The ${backend} image backend returned no image data.`, 'Rephrase the prompt (it may have been refused by the provider) and try again.');
  const bytes = Buffer.from(base64, 'base64');
  return { bytes, mimeType: sniffImageType(bytes) ?? mimeType, ...(typeof revisedPrompt === 'string' && revisedPrompt !== '' ? { revisedPrompt } : {}) };
}

/**
 * This version has no ChatGPT/Codex sign-in verb (the CLI has no auth verb), so the hint names the
 * route that works today: the openai backend with an API key in the secret store.
 */
export const CODEX_NO_SIGN_IN_HINT = 'This version of Fermix has no ChatGPT/Codex sign-in; set [fermix_core.tools.generate_image] backend = "openai" in config.toml and store an API key with `fermix secrets set OPENAI_API_KEY`, then restart the daemon.';

/** Secret-store items (then environment variables) holding each backend's credential. */
export const KEY_NAMES: Record<ImageBackend, readonly string[]> = {
  openai: ['OPENAI_API_KEY'],
  xai: ['XAI_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  openai_codex: ['openai_codex_access_token'],
};

function multipart(fields: Record<string, string>, files: Record<string, ImageFile>): { body: Buffer; contentType: string } {
  const boundary = `fermix-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, file] of Object.entries(files)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename.replace(/"/g, '')}"\r\nContent-Type: ${file.mimeType}\r\n\r\n`), file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function post(request: ImageRequest, path: string, body: string | Buffer, headers: Record<string, string>): Promise<GuardedResponse> {
  return guardedFetch(`${request.baseUrl.replace(/\/+$/, '')}${path}`, {
    ...request.net,
    method: 'POST',
    headers,
    body,
    maxBytes: MAX_RESPONSE_BYTES,
    maxRedirects: 0,
    receiveTimeoutMs: IMAGE_TIMEOUT_MS,
  });
}

export function backendSupports(backend: ImageBackend, feature: 'edit' | 'mask'): boolean {
  if (feature === 'mask') return backend === 'openai';
  return backend !== 'xai';
}

export async function requestImage(request: ImageRequest): Promise<GeneratedImage> {
  const { backend } = request;
  const bearer = { authorization: `Bearer ${request.credential}` };
  if (backend === 'openai' || backend === 'xai') {
    if (request.operation === 'edit') {
      const fields: Record<string, string> = { model: request.model, prompt: request.prompt, n: '1', ...(request.size ? { size: request.size } : {}) };
      const files: Record<string, ImageFile> = { image: request.image!, ...(request.mask ? { mask: request.mask } : {}) };
      const form = multipart(fields, files);
      const response = await post(request, '/v1/images/edits', form.body, { ...bearer, 'content-type': form.contentType });
      checkStatus(backend, response);
      const item = parseJson(backend, response)?.data?.[0];
      return decoded(backend, item?.b64_json, 'image/png', item?.revised_prompt);
    }
    // gpt-image models always answer base64; dall-e and grok images need response_format to do so.
    const body = { model: request.model, prompt: request.prompt, n: 1, ...(request.size && backend === 'openai' ? { size: request.size } : {}), ...(backend === 'xai' || request.model.startsWith('dall-e') ? { response_format: 'b64_json' } : {}) };
    const response = await post(request, '/v1/images/generations', JSON.stringify(body), { ...bearer, 'content-type': 'application/json' });
    checkStatus(backend, response);
    const item = parseJson(backend, response)?.data?.[0];
    return decoded(backend, item?.b64_json, typeof item?.mime_type === 'string' ? item.mime_type : backend === 'xai' ? 'image/jpeg' : 'image/png', item?.revised_prompt);
  }
  if (backend === 'google') {
    const parts: unknown[] = [{ text: request.prompt }];
    if (request.image) parts.push({ inline_data: { mime_type: request.image.mimeType, data: request.image.bytes.toString('base64') } });
    const body = { contents: [{ role: 'user', parts }], generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } };
    const response = await post(request, `/v1beta/models/${encodeURIComponent(request.model)}:generateContent`, JSON.stringify(body), { 'x-goog-api-key': request.credential, 'content-type': 'application/json' });
    checkStatus(backend, response);
    const found = (parseJson(backend, response)?.candidates?.[0]?.content?.parts ?? []).find((part: any) => part?.inlineData?.data ?? part?.inline_data?.data);
    const inline = found?.inlineData ?? found?.inline_data;
    return decoded(backend, inline?.data, inline?.mimeType ?? inline?.mime_type ?? 'image/png');
  }
  // openai_codex: the Responses API with the hosted image_generation tool, under the ChatGPT login.
  const content: unknown[] = [{ type: 'input_text', text: request.prompt }];
  if (request.image) content.push({ type: 'input_image', image_url: `data:${request.image.mimeType};base64,${request.image.bytes.toString('base64')}` });
  const body = { model: request.model, input: [{ role: 'user', content }], tools: [{ type: 'image_generation', ...(request.size ? { size: request.size } : {}) }], tool_choice: { type: 'image_generation' }, store: false };
  const response = await post(request, '/responses', JSON.stringify(body), { ...bearer, 'content-type': 'application/json' });
  checkStatus(backend, response);
  const call = (parseJson(backend, response)?.output ?? []).find((item: any) => item?.type === 'image_generation_call');
  return decoded(backend, call?.result, 'image/png', call?.revised_prompt);
}
