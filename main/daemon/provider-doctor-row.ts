/**
 * The doctor's providers row: it really asks the primary provider (and, with `--full`, every fallback)
 * for its model list — the one request that costs nothing and still exercises DNS, TCP, TLS, the key
 * and the model name — so "OK" no longer stands beside a dead only provider. Failures are worded by the
 * same classifier as a turn's (connection-errors.ts), so doctor and chat tell the same story.
 */
import type { HomePaths } from '../config/home.js';
import { loadConfig } from '../config/config-file.js';
import { isFermixError } from '../core/errors.js';
import { classifyConnectionFailure } from '../agent/providers/connection-errors.js';
import { listModels } from '../agent/providers/model-list.js';
import { providerApiKey, resolveProviders, type ResolvedProvider } from '../agent/providers/provider-config.js';
import { createSecretStore } from '../secrets/secret-store.js';
import { cliCommand } from '../cli/invocation.js';
import type { DoctorCheck, DoctorResult } from './doctor.js';

interface Probe {
  provider: ResolvedProvider;
  ok: boolean;
  detail: string;
  fix: string;
}

async function probe(provider: ResolvedProvider, key: () => string | undefined): Promise<Probe> {
  const where = provider.baseUrl ?? `the ${provider.type} API`;
  let apiKey: string | undefined;
  try {
    apiKey = key();
  } catch (error) {
    if (!isFermixError(error)) throw error;
    return { provider, ok: false, detail: error.message, fix: error.hint };
  }
  // Keep the socket's own error: listModels words it generically, the classifier tells refused from DNS from TLS.
  let transportError: unknown;
  const recordingFetch: typeof fetch = async (...args) => {
    try {
      return await fetch(...args);
    } catch (error) {
      transportError = error;
      throw error;
    }
  };
  try {
    const models = await listModels(provider, apiKey, recordingFetch);
    if (models.length > 0 && !models.includes(provider.model)) {
      const shown = models.slice(0, 8).join(', ');
      return { provider, ok: false, detail: `${provider.name} answers at ${where} but does not serve the model "${provider.model}" (it serves ${shown}${models.length > 8 ? ', …' : ''})`, fix: `Set model in [providers.${provider.name}] to one of them (Settings → Models), or pull it (\`ollama pull ${provider.model}\`).` };
    }
    return { provider, ok: true, detail: `${provider.name} (${provider.model}) answers at ${where}`, fix: '' };
  } catch (error) {
    const connection = transportError === undefined ? undefined : classifyConnectionFailure(transportError, provider);
    if (connection) return { provider, ok: false, detail: connection.error.message, fix: connection.error.hint };
    if (isFermixError(error)) {
      const fix = error.code === 'provider_auth' ? `The key was rejected: ${error.hint.charAt(0).toLowerCase()}${error.hint.slice(1)}` : error.hint;
      return { provider, ok: false, detail: error.message, fix };
    }
    return { provider, ok: false, detail: `${provider.name}: ${(error as Error).message}`, fix: `Check [providers.${provider.name}] in config.toml.` };
  }
}

export function providersDoctorCheck(paths: HomePaths, options: { full?: boolean } = {}): DoctorCheck {
  return {
    id: 'providers',
    title: 'providers',
    async run(): Promise<DoctorResult> {
      let config;
      try {
        config = loadConfig(paths.config).config;
      } catch {
        return { status: 'N/A', detail: 'config.toml is invalid (see the config row)', fix: '' };
      }
      const providers = resolveProviders(config);
      if (providers.length === 0) {
        return { status: 'WARN', detail: 'no model provider is configured: the agent cannot answer', fix: `Add one in Settings → Models, or \`${cliCommand('providers add')} local --type openai-compatible --base-url http://127.0.0.1:11434/v1 --model qwen3 --primary\`.` };
      }
      const core = config.fermix_core;
      const secrets = {
        keyring: (name: string, profile: string) => createSecretStore({ kind: core.secret_store, profile, fermixHome: paths.home }).get(name),
        env: (name: string) => process.env[name],
      };
      const targets = options.full ? providers : providers.slice(0, 1);
      const probes = await Promise.all(targets.map((provider) => probe(provider, () => providerApiKey(config, provider, secrets))));
      const skipped = providers.length - targets.length;
      const tail = skipped > 0 ? `; ${skipped} fallback${skipped === 1 ? '' : 's'} not probed (\`${cliCommand('doctor --full')}\`)` : '';
      const failed = probes.filter((entry) => !entry.ok);
      if (failed.length === 0) return { status: 'OK', detail: `${probes.map((entry) => entry.detail).join('; ')}${tail}`, fix: '' };
      const primaryFailed = !probes[0].ok;
      // A dead fallback is a warning while the primary answers; a dead primary is a failure (turns fail or fall back every time).
      const label = (entry: Probe) => (entry.provider.primary ? 'primary ' : 'fallback ');
      return {
        status: primaryFailed ? 'FAIL' : 'WARN',
        detail: `${failed.map((entry) => `${label(entry)}${entry.detail}`).join('; ')}${tail}`,
        fix: failed[0].fix,
      };
    },
  };
}
