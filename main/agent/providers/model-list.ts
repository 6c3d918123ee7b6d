/**
 * Model lists come from the provider's own API, never from a list shipped with the app (reference §5
 * "Model lists"): GET {base}/models for OpenAI and compatible servers, GET {base}/models with
 * x-api-key for Anthropic, and Ollama's /api/tags for the local probe.
 */
import { FermixError } from '../../core/errors.js';
import { OLLAMA_BASE_URL, type ResolvedProvider } from './provider-config.js';

const DEFAULT_BASES: Record<ResolvedProvider['type'], string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  'openai-compatible': OLLAMA_BASE_URL,
};

const LIST_TIMEOUT_MS = 10_000;

export async function listModels(provider: ResolvedProvider, apiKey: string | undefined, fetchImpl: typeof fetch = fetch): Promise<string[]> {
  const base = (provider.baseUrl ?? DEFAULT_BASES[provider.type]).replace(/\/+$/, '');
  const headers: Record<string, string> = {};
  if (provider.type === 'anthropic') {
    if (apiKey) headers['x-api-key'] = apiKey;
    headers['anthropic-version'] = '2023-06-01';
  } else if (apiKey) {
    headers.authorization = `Bearer ${apiKey}`;
  }
  let response: Response;
  try {
    response = await fetchImpl(`${base}/models`, { headers, signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
  } catch (error) {
    throw new FermixError({
      code: 'provider_unreachable',
      message: `Could not reach ${base}/models for provider ${provider.name}: ${(error as Error).message}.`,
      hint: `Check that the server is running and base_url in [providers.${provider.name}] is right.`,
      data: { provider: provider.name },
    });
  }
  if (!response.ok) {
    throw new FermixError({
      code: response.status === 401 || response.status === 403 ? 'provider_auth' : 'provider_error',
      message: `Provider ${provider.name} answered HTTP ${response.status} to the model list request.`,
      hint: response.status === 401 || response.status === 403 ? `Store a valid key with \`fermix providers set-key ${provider.name} --stdin\`.` : `Check base_url in [providers.${provider.name}]; some servers have no model list.`,
      data: { provider: provider.name, status: response.status },
    });
  }
  const body = (await response.json()) as { data?: { id?: string }[] };
  return (body.data ?? []).map((entry) => entry.id).filter((id): id is string => typeof id === 'string').sort();
}

export interface OllamaProbe {
  found: boolean;
  base_url: string;
  models: string[];
}

/**
 * Is a local Ollama answering? Used when no provider is configured, to offer it. Short timeout: the
 * probe runs on the no-provider path and must not delay an error for long.
 */
export async function probeOllama(origin = 'http://127.0.0.1:11434', fetchImpl: typeof fetch = fetch, timeoutMs = 1_500): Promise<OllamaProbe> {
  const base_url = `${origin.replace(/\/+$/, '')}/v1`;
  try {
    const response = await fetchImpl(`${origin.replace(/\/+$/, '')}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return { found: false, base_url, models: [] };
    const body = (await response.json()) as { models?: { name?: string; model?: string }[] };
    const models = (body.models ?? []).map((m) => m.name ?? m.model).filter((name): name is string => typeof name === 'string');
    return { found: true, base_url, models };
  } catch {
    return { found: false, base_url, models: [] };
  }
}
