/**
 * What the chat API and the loop ask about providers: the ordered handles for a turn, the list for
 * Settings → Models (with the local Ollama offered when nothing is configured), a provider's model
 * list, and the error a turn gets when there is no provider at all.
 */
import type { FermixConfig } from '../../config/schema.js';
import { FermixError, isFermixError } from '../../core/errors.js';
import type { ProviderHandle } from '../loop/model-call.js';
import { acceptsImages } from './model-capabilities.js';
import { aiSdk } from '../ai-runtime.js';
import type { LanguageModel } from 'ai';
import { listModels, probeOllama, type OllamaProbe } from './model-list.js';
import { PROVIDER_SETUP_UI, providerApiKey, resolveProviders, type ProviderType, type ResolvedProvider } from './provider-config.js';
import type { SecretReader } from './secrets.js';

export interface ProviderServiceOptions {
  config: () => FermixConfig;
  secrets: SecretReader;
  fetch?: typeof fetch;
  /** Where to look for a local Ollama; tests point it at the scripted server. */
  ollamaOrigin?: string;
}

export interface ProviderInfo {
  name: string;
  type: ProviderType;
  base_url: string | null;
  model: string;
  primary: boolean;
  key: { source: 'keyring' | 'env' | 'none'; label: string | null; present: boolean | null; problem: string | null };
}

export function noProviderError(probe: OllamaProbe): FermixError {
  const ollama = probe.found
    ? ` A local Ollama answers at ${probe.base_url}${probe.models.length ? ` with ${probe.models.slice(0, 5).join(', ')}` : ''}: use it with \`fermix providers add local --type openai-compatible --base-url ${probe.base_url} --model ${probe.models[0] ?? 'qwen3'} --primary\`.`
    : '';
  return new FermixError({
    code: 'no_provider',
    message: `No model provider is configured, so there is nothing to answer with.${ollama}`,
    hint: `Add one in the app under ${PROVIDER_SETUP_UI}, or run \`fermix providers add NAME --type openai|anthropic|openai-compatible --model MODEL [--base-url URL] --primary\` (then \`fermix providers set-key NAME --stdin\` for a hosted API).`,
    data: { ollama: probe },
  });
}

/** Built models kept, one per provider settings and key (a changed key or setting builds a new one). */
const MAX_BUILT_MODELS = 8;

export function createProviderService(options: ProviderServiceOptions) {
  const fetchImpl = options.fetch;
  // Building a model builds the provider's zod schemas for its stream chunks (~150 KB a turn, all garbage
  // by the next turn: docs/decisions/0027); the same settings and key reuse the model.
  const built = new Map<string, LanguageModel>();
  function modelFor(config: FermixConfig, provider: ResolvedProvider): LanguageModel {
    const apiKey = providerApiKey(config, provider, options.secrets);
    const id = JSON.stringify([provider, apiKey ?? null]);
    let model = built.get(id);
    if (!model) {
      model = aiSdk().createLanguageModel(provider, apiKey, fetchImpl);
      if (built.size >= MAX_BUILT_MODELS) built.delete(built.keys().next().value!);
      built.set(id, model);
    }
    return model;
  }
  return {
    /** Primary first, then fallbacks. Keys are read when a handle's model is first built. */
    handles(config: FermixConfig = options.config()): ProviderHandle[] {
      return resolveProviders(config).map((provider) => {
        let model: LanguageModel | undefined;
        return {
          provider,
          acceptsImages: acceptsImages(provider),
          model: () => (model ??= modelFor(config, provider)),
        };
      });
    },
    async noProvider(): Promise<FermixError> {
      return noProviderError(await probeOllama(options.ollamaOrigin, fetchImpl));
    },
    probeOllama(): Promise<OllamaProbe> {
      return probeOllama(options.ollamaOrigin, fetchImpl);
    },
    list(): ProviderInfo[] {
      const config = options.config();
      return resolveProviders(config).map((provider) => {
        let present: boolean | null = null;
        let problem: string | null = null;
        if (provider.keySource !== 'none') {
          try {
            present = providerApiKey(config, provider, options.secrets) !== undefined;
          } catch (error) {
            present = false;
            problem = isFermixError(error) ? `${error.message} ${error.hint}` : String(error);
          }
        }
        return {
          name: provider.name,
          type: provider.type,
          base_url: provider.baseUrl ?? null,
          model: provider.model,
          primary: provider.primary,
          key: { source: provider.keySource, label: provider.keyLabel, present, problem },
        };
      });
    },
    async models(name: string): Promise<string[]> {
      const config = options.config();
      const provider = resolveProviders(config).find((p) => p.name === name);
      if (!provider) {
        throw new FermixError({
          code: 'unknown_provider',
          message: `No provider named ${name} is configured.`,
          hint: `\`fermix providers list\` shows the configured names; add one in ${PROVIDER_SETUP_UI}.`,
          data: { name },
        });
      }
      return listModels(provider, providerApiKey(config, provider, options.secrets), fetchImpl);
    },
  };
}

export type ProviderService = ReturnType<typeof createProviderService>;
