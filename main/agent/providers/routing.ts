/**
 * Model routing for delegated runs: a skill's `provider` / `model` / `temperature` frontmatter and
 * `[fermix_core.routing] subagent_provider` / `subagent_model` / `subagent_effort`. A route names one
 * configured provider — by its [providers.<name>] name, or by its type when exactly one provider has it
 * (a skill says `provider: anthropic`) — and optionally a model that replaces the provider's configured
 * one for this run only. The run then uses that provider alone: a skill that asked for Anthropic never
 * silently runs on the primary instead. Whether the provider serves the model is its own answer at the
 * first request (provider_model_not_found names the model and `providers models`).
 * Temperature and reasoning effort are applied as the AI SDK's default settings on the routed model.
 */
import { FermixError } from '../../core/errors.js';
import type { FermixConfig } from '../../config/schema.js';
import { aiSdk } from '../ai-runtime.js';
import type { ProviderHandle } from '../loop/model-call.js';
import type { ResolvedProvider } from './provider-config.js';
import { PROVIDER_SETUP_UI } from './provider-config.js';

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface ModelRoute {
  provider?: string;
  model?: string;
  temperature?: number;
  effort?: ReasoningEffort;
  /** Who asked, for messages: `skill notes`, `[fermix_core.routing] subagent_provider`. */
  source: string;
}

/** The [providers] entry a route's provider names: the name itself, else the one provider of that type. */
export function routedProviderName(config: FermixConfig, provider: string): string | undefined {
  if (config.providers[provider]) return provider;
  const byType = Object.entries(config.providers).filter(([, entry]) => entry.type === provider);
  return byType.length === 1 ? byType[0][0] : undefined;
}

export function unknownRoutedProvider(config: FermixConfig, provider: string, source: string, hint: string): FermixError {
  const configured = Object.keys(config.providers);
  return new FermixError({
    code: 'unknown_provider',
    message: `${source} names the provider "${provider}", and no configured provider has that name or type (configured: ${configured.join(', ') || 'none'}).`,
    hint,
    data: { provider, configured },
  });
}

/** Reasoning effort goes to the OpenAI-protocol providers only (Anthropic's thinking budget is not an effort level). */
export function effortSupported(type: ResolvedProvider['type']): boolean {
  return type === 'openai' || type === 'openai-compatible';
}

function withSettings(handle: ProviderHandle, route: ModelRoute): ProviderHandle {
  if (route.temperature === undefined && route.effort === undefined) return handle;
  const key = handle.provider.type === 'openai' ? 'openai' : handle.provider.name;
  const providerOptions = route.effort !== undefined && effortSupported(handle.provider.type) ? { [key]: { reasoningEffort: route.effort } } : undefined;
  let built: ReturnType<ProviderHandle['model']> | undefined;
  return {
    ...handle,
    model: () =>
      (built ??= aiSdk().wrapLanguageModel({
        model: handle.model() as Parameters<ReturnType<typeof aiSdk>['wrapLanguageModel']>[0]['model'],
        middleware: aiSdk().defaultSettingsMiddleware({ settings: { ...(route.temperature !== undefined ? { temperature: route.temperature } : {}), ...(providerOptions ? { providerOptions } : {}) } }),
      })),
  };
}

/**
 * The handles a routed run uses. No provider and no model: every configured handle, in order. A
 * provider: that provider alone, with the route's model if it names one. A model without a provider:
 * the primary with that model.
 */
export function routedHandles(config: FermixConfig, handlesFor: (config: FermixConfig) => ProviderHandle[], route: ModelRoute, hint: string): ProviderHandle[] {
  if (route.provider === undefined && route.model === undefined) return handlesFor(config).map((handle) => withSettings(handle, route));
  const primary = handlesFor(config)[0]?.provider.name;
  const name = route.provider === undefined ? primary : routedProviderName(config, route.provider);
  if (name === undefined) {
    if (route.provider === undefined) return [];
    throw unknownRoutedProvider(config, route.provider, route.source, hint);
  }
  const entry = config.providers[name];
  const narrowed: FermixConfig = { ...config, providers: { [name]: { ...entry, primary: true, ...(route.model !== undefined ? { model: route.model } : {}) } } };
  return handlesFor(narrowed).map((handle) => withSettings(handle, route));
}

export const ROUTING_SETUP_HINT = `Name a provider configured in config.toml ([providers.<name>], \`fermix providers list\`) or add it in ${PROVIDER_SETUP_UI}.`;
