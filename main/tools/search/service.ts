/**
 * tool_search's node-side service, built once from `[fermix_core.tools.tool_search]` by the daemon
 * (main/daemon/tool-services.ts) and handed to the executor as `context.services.toolSearch`.
 * `embeddings = "<provider>"` names an entry of [providers]; its base_url and key are used with
 * `embeddings_model` (default nomic-embed-text, Ollama's). Absent: lexical only, no network at all.
 */
import { createEmbeddingsClient, type EmbeddingsClientOptions } from './embeddings.js';
import { createHybridRanker, type HybridRanker } from './hybrid.js';

export interface ToolSearchService {
  /** Present when hybrid mode is configured and its provider resolved. */
  hybrid?: HybridRanker;
  /** Said once per failure kind, so a down provider does not flood the log. */
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface ToolSearchSettings { embeddings?: string; embeddings_model: string }
export interface ProviderEntry { base_url?: string; api_key_env?: string; api_key_ref?: string; type: string }

export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1';

export function createToolSearchService(options: {
  settings: ToolSearchSettings;
  providers: Record<string, ProviderEntry>;
  /** A keychain entry's value (api_key_ref) or an environment variable's (api_key_env). */
  secret: (ref: { keyring?: string; env?: string }) => string | undefined;
  warn: (message: string, fields?: Record<string, unknown>) => void;
  policy?: EmbeddingsClientOptions['policy'];
}): ToolSearchService {
  const said = new Set<string>();
  const warn = (message: string, fields?: Record<string, unknown>) => {
    if (said.has(message)) return;
    said.add(message);
    options.warn(message, fields);
  };
  const name = options.settings.embeddings;
  if (!name) return { warn };
  const provider = options.providers[name];
  if (!provider) {
    warn(`tool_search: [fermix_core.tools.tool_search] embeddings names provider "${name}", which is not in [providers]; keyword ranking only.`);
    return { warn };
  }
  const baseUrl = provider.base_url ?? (provider.type === 'openai' ? 'https://api.openai.com/v1' : OLLAMA_DEFAULT_BASE_URL);
  const apiKey = options.secret({ keyring: provider.api_key_ref?.slice('@keyring:'.length), env: provider.api_key_env });
  const client = createEmbeddingsClient({ baseUrl, model: options.settings.embeddings_model, apiKey, policy: options.policy });
  return { hybrid: createHybridRanker(client), warn };
}
