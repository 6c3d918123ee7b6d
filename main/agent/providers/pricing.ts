/**
 * Cost estimate per model call. Prices are public list prices in USD per million tokens (input,
 * output) as published by OpenAI and Anthropic in 2025; matched by model-id prefix, longest first.
 * A model on this machine costs nothing; an unknown hosted model has no estimate (null), never a
 * guessed zero.
 */
import type { ResolvedProvider } from './provider-config.js';

const PRICES: readonly [prefix: string, input: number, output: number][] = [
  ['gpt-4o-mini', 0.15, 0.6],
  ['gpt-4o', 2.5, 10],
  ['gpt-4.1-nano', 0.1, 0.4],
  ['gpt-4.1-mini', 0.4, 1.6],
  ['gpt-4.1', 2, 8],
  ['gpt-5-nano', 0.05, 0.4],
  ['gpt-5-mini', 0.25, 2],
  ['gpt-5', 1.25, 10],
  ['o4-mini', 1.1, 4.4],
  ['o3', 2, 8],
  ['claude-opus-4', 15, 75],
  ['claude-sonnet-4', 3, 15],
  ['claude-3-7-sonnet', 3, 15],
  ['claude-3-5-sonnet', 3, 15],
  ['claude-haiku-4', 1, 5],
  ['claude-3-5-haiku', 0.8, 4],
].sort((a, b) => (b[0] as string).length - (a[0] as string).length) as never;

/** A local OpenAI-compatible server (Ollama, LM Studio). An openai/anthropic type on localhost is a proxy to a paid API. */
function isLocal(provider: ResolvedProvider): boolean {
  if (provider.type !== 'openai-compatible' || !provider.baseUrl) return false;
  try {
    const host = new URL(provider.baseUrl).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]';
  } catch {
    return false;
  }
}

export function estimateCostUsd(provider: ResolvedProvider, inputTokens: number | undefined, outputTokens: number | undefined): number | null {
  if (inputTokens === undefined && outputTokens === undefined) return null;
  if (isLocal(provider)) return 0;
  const model = provider.model.toLowerCase().replace(/^(openai|anthropic)\//, '');
  const price = PRICES.find(([prefix]) => model.startsWith(prefix));
  if (!price) return null;
  return ((inputTokens ?? 0) * price[1] + (outputTokens ?? 0) * price[2]) / 1_000_000;
}
