import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { extname, join } from 'node:path';
import { z } from 'zod';
import type { ExecutionContext, Executor } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { CODEX_NO_SIGN_IN_HINT, DEFAULT_BASE_URLS, DEFAULT_MODELS, IMAGE_TIMEOUT_MS, KEY_NAMES, backendSupports, requestImage, type ImageBackend, type ImageFile } from './image-backends/backends.js';
import { optionalService, pathContext, servicesOf } from './tool-services.js';
import { netDepsFrom } from './web-fetch.js';

export const generateImageInput = lazySchema(() =>
  z.object({
    prompt: z.string().min(1).describe('What to create or, for an edit, how to change the source image.'),
    operation: z.enum(['generate', 'edit']).default('generate').describe('generate a new image (default) or edit an existing one.'),
    input_image: z
      .string()
      .optional()
      .describe('For edit: a sandbox path to the source image, or inbound:last for the image just sent in this chat.'),
    mask: z.string().optional().describe('For edit, OpenAI backend only: sandbox path to a PNG mask whose transparent areas are edited.'),
    size: z.string().optional().describe('Output size such as 1024x1024 (default: the configured size).'),
    model: z.string().optional().describe('Model override for this call (default: the configured model).'),
  }),
);

/**
 * `context.services.imageGeneration`, from the composition root: the `[fermix_core.tools.generate_image]`
 * settings (read per call), and the credential lookup (secret store first, then the environment).
 * `baseUrls` exists for the test composition only (local fakes behind createTestPolicy()).
 */
export interface ImageGenerationService {
  settings(): { backend?: ImageBackend; model?: string; size?: string };
  credential(name: string): string | undefined;
  baseUrls?: Partial<Record<ImageBackend, string>>;
}

function imageService(context: ExecutionContext): ImageGenerationService | undefined {
  const raw = context.services?.imageGeneration as Partial<ImageGenerationService> | undefined;
  return raw && typeof raw.settings === 'function' && typeof raw.credential === 'function' ? (raw as ImageGenerationService) : undefined;
}

const fail = (code: string, message: string, hint: string, data?: Record<string, unknown>) => new FermixError({ code, message, hint, data });

const MIME_BY_EXT: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif' };
const EXT_BY_MIME: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

async function readSource(context: ExecutionContext, input: string, field: 'input_image' | 'mask'): Promise<ImageFile> {
  if (input === 'inbound:last') {
    // The chat's uploads live in the attachments store, which executors cannot read yet.
    throw fail('invalid_arguments', 'inbound:last is not available in this build: generate_image can only read images from the sandbox.', 'Save the image into the workspace (or a granted folder) and pass its path as input_image.', { field });
  }
  const { sandbox } = servicesOf(context, 'sandbox');
  const real = sandbox.policy.checkRead(input, pathContext(context, sandbox)); // sandbox_denied, invalid_path
  const bytes = await readFile(real).catch((error: NodeJS.ErrnoException) => {
    throw fail('not_found', `${field} ${input} could not be read (${error.code ?? 'error'}).`, 'Check the path with glob_search, then call generate_image again.', { field, path: real });
  });
  return { bytes, mimeType: MIME_BY_EXT[extname(real).toLowerCase()] ?? 'image/png', filename: real.split('/').pop() ?? 'image.png' };
}

const executeGenerateImage: Executor = async (args, context) => {
  const service = imageService(context);
  const settings = service?.settings() ?? {};
  const backend = settings.backend;
  if (!service || backend === undefined) {
    throw fail('not_configured', 'No image backend is configured.', 'Set [fermix_core.tools.generate_image] backend = "openai" (or xai, google, openai_codex) in config.toml (`fermix config path` shows where it is), then restart the daemon.');
  }
  const prompt = typeof args.prompt === 'string' ? args.prompt.trim() : '';
  if (prompt === '') throw fail('invalid_arguments', 'generate_image needs a non-empty prompt.', 'Call generate_image again with `prompt` describing the picture.');
  const operation = args.operation === 'edit' ? 'edit' : 'generate';
  const maskPath = typeof args.mask === 'string' && args.mask !== '' ? args.mask : undefined;
  const inputPath = typeof args.input_image === 'string' && args.input_image !== '' ? args.input_image : undefined;
  // Refused loudly before any key is read or byte is sent: the backend cannot do it, whatever the prompt.
  if (operation === 'edit' && !backendSupports(backend, 'edit')) {
    throw fail('edit_unsupported', `The ${backend} image backend cannot edit images.`, 'Use operation "generate", or set [fermix_core.tools.generate_image] backend = "openai" or "google" for edits.', { backend });
  }
  if (maskPath !== undefined && !backendSupports(backend, 'mask')) {
    throw fail('mask_unsupported', `The ${backend} image backend does not support masks.`, 'Leave mask out and describe the area to change in the prompt, or use backend = "openai".', { backend });
  }
  if (operation === 'edit' && inputPath === undefined) throw fail('invalid_arguments', 'An edit needs input_image, the picture to change.', 'Call generate_image again with input_image set to a sandbox path.');
  if (operation === 'generate' && maskPath !== undefined) throw fail('invalid_arguments', 'A mask only applies to an edit.', 'Call again with operation "edit" and input_image, or without mask.');
  // openai_codex uses the ChatGPT/Codex login only: never an OpenAI API key in its place.
  const credential = KEY_NAMES[backend].map((name) => service.credential(name)).find((value) => typeof value === 'string' && value !== '');
  if (credential === undefined) {
    throw backend === 'openai_codex'
      ? fail('auth_failed', 'No ChatGPT/Codex login is present for the openai_codex image backend.', CODEX_NO_SIGN_IN_HINT, { backend })
      : fail('auth_failed', `No API key for the ${backend} image backend.`, `Store one with \`fermix secrets set ${KEY_NAMES[backend][0]}\` or set the ${KEY_NAMES[backend][0]} environment variable, then restart the daemon.`, { backend, key: KEY_NAMES[backend][0] });
  }
  const image = inputPath !== undefined && operation === 'edit' ? await readSource(context, inputPath, 'input_image') : undefined;
  const mask = maskPath !== undefined ? await readSource(context, maskPath, 'mask') : undefined;
  const model = typeof args.model === 'string' && args.model !== '' ? args.model : (settings.model ?? DEFAULT_MODELS[backend]);
  const size = typeof args.size === 'string' && args.size !== '' ? args.size : settings.size;
  const { policy, lookup, ca, userAgent, signal } = netDepsFrom(context);
  const generated = await requestImage({
    backend, operation, prompt, model, size, image, mask, credential,
    baseUrl: service.baseUrls?.[backend] ?? DEFAULT_BASE_URLS[backend],
    net: { policy, lookup, ca, userAgent, signal },
  });
  const { sandbox } = servicesOf(context, 'sandbox');
  const target = sandbox.policy.checkWrite(join(sandbox.workspace, 'media', `image-${new Date().toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}.${EXT_BY_MIME[generated.mimeType] ?? 'png'}`));
  try {
    await mkdir(join(sandbox.workspace, 'media'), { recursive: true });
    await writeFile(target, generated.bytes, { mode: 0o600 });
  } catch (error) {
    throw fail('write_failed', `The image could not be written to ${target}: ${(error as Error).message}.`, 'Check that the workspace is writable (`fermix sandbox explain PATH`).', { path: target });
  }
  const sink = optionalService(context, 'attachments');
  let shown = false;
  if (sink !== undefined && context.conversationId !== undefined) {
    await sink.send({ conversationId: context.conversationId, kind: 'image', path: target, filename: target.split('/').pop()!, mimeType: generated.mimeType, bytes: generated.bytes, caption: prompt.slice(0, 200) });
    shown = true;
  }
  return {
    text: `Image ${operation === 'edit' ? 'edited' : 'generated'} with ${backend} (${model}) and saved to ${target} (${generated.bytes.length} bytes)${shown ? '; it is shown in the chat' : ''}.${generated.revisedPrompt ? ` Revised prompt: ${generated.revisedPrompt}` : ''}`,
    images: [{ mimeType: generated.mimeType, base64: generated.bytes.toString('base64') }],
    data: { path: target, backend, model, operation, bytes: generated.bytes.length, mime_type: generated.mimeType, shown_in_chat: shown },
    audit: { backend, model, operation, bytes: generated.bytes.length },
  };
};

export const generateImage = defineBuiltin({
  name: 'generate_image',
  description:
    'Create or edit a raster image from a text prompt with the configured backend (openai, openai_codex, xai or google). The result is written under the sandbox media/ floor and sent to the current chat automatically.',
  policy_class: 'external_api',
  category: 'media',
  input: generateImageInput,
  when_to_use: 'The owner asks for a picture, illustration or photo edit; not for diagrams, charts or live data.',
  examples: [
    { args: { prompt: 'a watercolor fox in a sunlit birch forest' }, note: 'generate a new image' },
    { args: { operation: 'edit', input_image: 'inbound:last', prompt: 'make the sky stormy' }, note: 'edit the image just sent' },
  ],
  failure_modes: [
    { tag: 'not_configured', description: 'no image backend is configured; run `fermix setup`' },
    { tag: 'auth_failed', description: 'the backend key is missing or invalid, or the ChatGPT/Codex login is missing or not entitled' },
    { tag: 'edit_unsupported', description: 'the configured backend cannot edit images' },
    { tag: 'mask_unsupported', description: 'the configured backend does not support masks' },
    { tag: 'sandbox_denied', description: 'a source or mask path is outside the sandbox roots' },
    { tag: 'invalid_arguments', description: 'an edit without input_image, a mask without an edit, or inbound:last (not readable in this build)' },
    { tag: 'write_failed', description: 'the image could not be written under the workspace media/ folder' },
    { tag: 'rate_limited', description: 'the provider returned a rate limit' },
    { tag: 'provider_error', description: 'the provider returned an unexpected error' },
    { tag: 'network', description: 'transport or HTTP failure' },
  ],
  scope_requirements: ['net:outbound', 'fs:write', 'channel:send'],
  executor: executeGenerateImage,
  timeout_ms: IMAGE_TIMEOUT_MS + 15_000,
});
