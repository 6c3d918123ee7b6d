import type { ResolvedProvider } from './provider-config.js';

/**
 * Whether images in tool results can go to this model. Chat-completions tool messages are text only,
 * so for OpenAI-style providers images travel in a user message after the results; local
 * OpenAI-compatible models mostly have no vision, so only names that say so get images.
 */
export function acceptsImages(provider: ResolvedProvider): boolean {
  if (provider.type === 'anthropic' || provider.type === 'openai') return true;
  return /(vision|-vl|vl[:-]|llava|pixtral|gemma3|minicpm-v|qwen2\.5vl|gpt-4o|gpt-4\.1|gpt-5|claude)/i.test(provider.model);
}
