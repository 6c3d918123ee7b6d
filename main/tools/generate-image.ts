import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const generateImageInput = z.object({
  prompt: z.string().min(1).describe('What to create or, for an edit, how to change the source image.'),
  operation: z.enum(['generate', 'edit']).default('generate').describe('generate a new image (default) or edit an existing one.'),
  input_image: z
    .string()
    .optional()
    .describe('For edit: a sandbox path to the source image, or inbound:last for the image just sent in this chat.'),
  mask: z.string().optional().describe('For edit, OpenAI backend only: sandbox path to a PNG mask whose transparent areas are edited.'),
  size: z.string().optional().describe('Output size such as 1024x1024 (default: the configured size).'),
  model: z.string().optional().describe('Model override for this call (default: the configured model).'),
});

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
    { tag: 'rate_limited', description: 'the provider returned a rate limit' },
    { tag: 'provider_error', description: 'the provider returned an unexpected error' },
    { tag: 'network', description: 'transport or HTTP failure' },
  ],
  scope_requirements: ['net:outbound', 'fs:write', 'channel:send'],
});
