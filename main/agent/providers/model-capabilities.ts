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

/**
 * Known context windows in tokens, from the vendors' model pages (first match wins, so the more
 * specific names come first). `[providers.<name>] context_window` in config.toml overrides this.
 */
const KNOWN_CONTEXT_WINDOWS: [RegExp, number][] = [
  [/gpt-4\.1/i, 1_047_576],
  [/gpt-5/i, 400_000],
  [/gpt-4o|gpt-4-turbo|o1-mini/i, 128_000],
  [/(^|[^a-z])o[134](-mini|-pro)?([^a-z]|$)/i, 200_000],
  [/gpt-4-32k/i, 32_768],
  [/gpt-4/i, 8_192],
  [/gpt-3\.5/i, 16_385],
  [/claude/i, 200_000],
  [/gemini/i, 1_048_576],
  [/llama-?3\.[123]|llama3\.[123]|qwen2\.5|qwen3|mistral-(large|nemo)|deepseek/i, 128_000],
  [/llama-?3|llama3|gemma/i, 8_192],
];

/**
 * Unknown models (mostly local ones): 32,768 tokens. Too small wastes nothing but compacts early; too
 * large is caught by the context-overflow retry, which re-compresses.
 */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

export function knownContextWindow(model: string): number | undefined {
  return KNOWN_CONTEXT_WINDOWS.find(([pattern]) => pattern.test(model))?.[1];
}
