/**
 * `[providers.<name>]` → the ordered list the loop tries: the primary first, then every other
 * configured provider in file order as a fallback (reference §1.3 "Providers"). Keys are resolved
 * lazily, per turn, so a key added to the keychain works without a restart.
 */
import type { FermixConfig } from '../../config/schema.js';
import { FermixError } from '../../core/errors.js';
import type { SecretReader } from './secrets.js';

export type ProviderType = 'openai' | 'anthropic' | 'openai-compatible';

/** Ollama's OpenAI-compatible endpoint: the local default (issue 4 item 1). */
export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

export interface ResolvedProvider {
  name: string;
  type: ProviderType;
  /** Undefined = the SDK's own default (api.openai.com, api.anthropic.com). */
  baseUrl: string | undefined;
  model: string;
  primary: boolean;
  timeoutMs: number;
  keySource: 'keyring' | 'env' | 'none';
  /** Where the key comes from, for messages: `@keyring:OPENAI_API_KEY` or `$OPENAI_API_KEY`. */
  keyLabel: string | null;
}

/** Where people configure a provider; every "no provider" and "bad key" hint names both. */
export const PROVIDER_SETUP_UI = 'Settings → Models';
export function providerSetupCommand(): string {
  return 'fermix providers add local --type openai-compatible --base-url http://127.0.0.1:11434/v1 --model qwen3 --primary';
}

export function resolveProviders(config: FermixConfig): ResolvedProvider[] {
  const entries = Object.entries(config.providers);
  const ordered = [...entries.filter(([, p]) => p.primary), ...entries.filter(([, p]) => !p.primary)];
  return ordered.map(([name, p], index) => ({
    name,
    type: p.type,
    baseUrl: p.base_url ?? (p.type === 'openai-compatible' ? OLLAMA_BASE_URL : undefined),
    model: p.model,
    // With no provider marked primary, the first one in the file acts as primary.
    primary: p.primary || (index === 0 && !entries.some(([, other]) => other.primary)),
    timeoutMs: p.timeout_ms,
    keySource: p.api_key_ref ? 'keyring' : p.api_key_env ? 'env' : 'none',
    keyLabel: p.api_key_ref ?? (p.api_key_env ? `$${p.api_key_env}` : null),
  }));
}

/** Reads a provider's key. A configured but missing key is an error naming where to put it. */
export function providerApiKey(config: FermixConfig, provider: ResolvedProvider, secrets: SecretReader): string | undefined {
  const raw = config.providers[provider.name];
  if (!raw) return undefined;
  if (raw.api_key_ref) {
    const name = raw.api_key_ref.slice('@keyring:'.length);
    const value = secrets.keyring(name, config.fermix_core.profile);
    if (value) return value;
    throw new FermixError({
      code: 'needs_secret',
      message: `Provider ${provider.name} wants its API key from the keychain (${raw.api_key_ref}), and the keychain has no entry fermix:${name}.`,
      hint: `Store the key with \`fermix providers set-key ${provider.name} --stdin\`, or in ${PROVIDER_SETUP_UI}.`,
      data: { provider: provider.name },
    });
  }
  if (raw.api_key_env) {
    const value = secrets.env(raw.api_key_env);
    if (value) return value;
    throw new FermixError({
      code: 'needs_secret',
      message: `Provider ${provider.name} reads its API key from $${raw.api_key_env}, which is not set in the daemon's environment.`,
      hint: `Set ${raw.api_key_env} where the daemon starts, or store the key in the keychain with \`fermix providers set-key ${provider.name} --stdin\`.`,
      data: { provider: provider.name },
    });
  }
  // Hosted APIs need a key; a local server usually does not.
  if (provider.type !== 'openai-compatible') {
    throw new FermixError({
      code: 'needs_secret',
      message: `Provider ${provider.name} (${provider.type}) has no API key configured.`,
      hint: `Run \`fermix providers set-key ${provider.name} --stdin\`, or add the key in ${PROVIDER_SETUP_UI}.`,
      data: { provider: provider.name },
    });
  }
  return undefined;
}
