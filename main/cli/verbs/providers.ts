/**
 * `fermix providers list|add|remove|primary|set-key|models` — the CLI side of Settings → Models.
 * They edit config.toml directly (atomic, validated) and need no daemon: the daemon reads config at
 * every turn, so a provider added here answers the next message. Keys go to the OS keychain (account
 * `fermix`, service `fermix:<NAME>`), never to config or argv.
 */
import { parseArgs } from 'node:util';
import { loadConfig, updateConfig } from '../../config/config-file.js';
import type { HomePaths } from '../../config/home.js';
import { FermixError } from '../../core/errors.js';
import { createProviderService } from '../../agent/providers/provider-service.js';
import { OLLAMA_BASE_URL } from '../../agent/providers/provider-config.js';
import { keychainService } from '../../secrets/keychain.js';
import { createSecretStore } from '../../secrets/secret-store.js';
import { EXIT, UsageError, reportError, type CliIo } from '../output.js';

export const PROVIDERS_USAGE = `usage:
  fermix providers list [--json]
  fermix providers add NAME --type openai|anthropic|openai-compatible --model MODEL [--base-url URL] [--primary] [--key-env VAR]
  fermix providers remove NAME
  fermix providers primary NAME
  fermix providers set-key NAME [--stdin]      (stores the API key in the OS keychain)
  fermix providers models NAME [--json]`;

const TYPES = ['openai', 'anthropic', 'openai-compatible'] as const;

export interface ProvidersEnvironment {
  io: CliIo;
  paths: HomePaths;
  readSecret(prompt: string, fromStdin: boolean): Promise<string>;
  /** Stores NAME in the keychain (main/secrets/keychain.ts: service fermix:NAME, account fermix). */
  storeSecret(name: string, profile: string, value: string): void;
  fetch?: typeof fetch;
  ollamaOrigin?: string;
}

type Raw = Record<string, unknown>;
const providersOf = (raw: Raw) => ((raw.providers ??= {}) as Record<string, Raw>);

function keyName(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`;
}

export async function runProviders(argv: string[], env: ProvidersEnvironment): Promise<number> {
  let json = argv.includes('--json');
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        type: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        primary: { type: 'boolean', default: false },
        'key-env': { type: 'string' },
        stdin: { type: 'boolean', default: false },
      },
    });
    json = values.json ?? false;
    const [sub, name] = positionals;
    const file = env.paths.config;
    const service = () => createProviderService({ config: () => loadConfig(file).config, secrets: { keyring: (name, profile) => createSecretStore({ kind: loadConfig(file).config.fermix_core.secret_store, profile, fermixHome: env.paths.home }).get(name), env: (name) => process.env[name] }, fetch: env.fetch, ollamaOrigin: env.ollamaOrigin });
    const needName = () => {
      if (!name) throw new UsageError(`a provider NAME is required\n${PROVIDERS_USAGE}`);
      return name;
    };
    const mustExist = (raw: Raw, provider: string) => {
      if (!providersOf(raw)[provider]) {
        throw new FermixError({ code: 'unknown_provider', message: `No provider named ${provider} is configured.`, hint: '`fermix providers list` shows the configured names.' });
      }
    };

    switch (sub) {
      case undefined:
      case 'list': {
        const list = service().list();
        const ollama = list.length === 0 ? await service().probeOllama() : null;
        if (json) {
          env.io.out(JSON.stringify({ schema_version: 1, ok: true, result: { providers: list, ollama } }));
          return EXIT.ok;
        }
        for (const p of list) {
          const key = p.key.source === 'none' ? 'no key' : `key ${p.key.label}${p.key.present === false ? ' (MISSING)' : ''}`;
          env.io.out(`${p.primary ? '*' : ' '} ${p.name.padEnd(16)} ${p.type.padEnd(18)} ${p.model.padEnd(24)} ${p.base_url ?? '(default URL)'}  ${key}`);
        }
        if (list.length === 0) {
          env.io.out('No model provider is configured.');
          if (ollama?.found) env.io.out(`A local Ollama answers at ${ollama.base_url} (${ollama.models.join(', ') || 'no models pulled yet'}): fermix providers add local --type openai-compatible --base-url ${OLLAMA_BASE_URL} --model ${ollama.models[0] ?? 'qwen3'} --primary`);
          else env.io.out('Add one: fermix providers add NAME --type openai|anthropic|openai-compatible --model MODEL [--base-url URL] --primary');
        }
        return EXIT.ok;
      }
      case 'add': {
        const provider = needName();
        if (!/^[a-z0-9_-]+$/i.test(provider)) throw new UsageError('NAME may use letters, digits, _ and -');
        const type = values.type as (typeof TYPES)[number] | undefined;
        if (!type || !TYPES.includes(type)) throw new UsageError(`--type must be one of ${TYPES.join(', ')}`);
        if (!values.model) throw new UsageError('--model is required (`fermix providers models NAME` lists what a server offers)');
        updateConfig(file, (raw) => {
          const all = providersOf(raw);
          const entry: Raw = { ...(all[provider] ?? {}), type, model: values.model };
          if (values['base-url']) entry.base_url = values['base-url'];
          else if (type === 'openai-compatible' && entry.base_url === undefined) entry.base_url = OLLAMA_BASE_URL;
          if (values['key-env']) {
            entry.api_key_env = values['key-env'];
            delete entry.api_key_ref;
          }
          const first = Object.keys(all).filter((other) => other !== provider).length === 0;
          if (values.primary || first) {
            for (const other of Object.values(all)) delete other.primary;
            entry.primary = true;
          }
          all[provider] = entry;
        });
        env.io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { name: provider } }) : `Added provider ${provider} to ${file}. It answers the next message; no restart needed.${type !== 'openai-compatible' && !values['key-env'] ? `\nStore its API key: fermix providers set-key ${provider} --stdin` : ''}`);
        return EXIT.ok;
      }
      case 'remove': {
        const provider = needName();
        updateConfig(file, (raw) => {
          mustExist(raw, provider);
          delete providersOf(raw)[provider];
        });
        env.io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { name: provider } }) : `Removed provider ${provider}.`);
        return EXIT.ok;
      }
      case 'primary': {
        const provider = needName();
        updateConfig(file, (raw) => {
          mustExist(raw, provider);
          for (const [other, entry] of Object.entries(providersOf(raw))) {
            if (other === provider) entry.primary = true;
            else delete entry.primary;
          }
        });
        env.io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { primary: provider } }) : `${provider} is now the primary provider; the others are fallbacks.`);
        return EXIT.ok;
      }
      case 'set-key': {
        const provider = needName();
        mustExist(loadConfig(file).raw, provider);
        const value = (await env.readSecret(`API key for ${provider} (not shown): `, values.stdin ?? false)).trim();
        if (!value) throw new UsageError('no key was given');
        const secretName = keyName(provider);
        const profile = loadConfig(file).config.fermix_core.profile;
        env.storeSecret(secretName, profile, value);
        updateConfig(file, (raw) => {
          const entry = providersOf(raw)[provider];
          entry.api_key_ref = `@keyring:${secretName}`;
          delete entry.api_key_env;
        });
        env.io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { name: provider, api_key_ref: `@keyring:${secretName}` } }) : `Stored the key in ${loadConfig(file).config.fermix_core.secret_store === 'file' ? 'the secret file store' : `the OS keychain (${keychainService(secretName, profile)})`}; [providers.${provider}] now reads it from there.`);
        return EXIT.ok;
      }
      case 'models': {
        const provider = needName();
        const models = await service().models(provider);
        env.io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { models } }) : models.join('\n') || '(the server lists no models)');
        return EXIT.ok;
      }
      default:
        throw new UsageError(`unknown providers command "${sub}"\n${PROVIDERS_USAGE}`);
    }
  } catch (error) {
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      return reportError(env.io, new UsageError(`${error.message}\n${PROVIDERS_USAGE}`), json);
    }
    return reportError(env.io, error, json);
  }
}

/** The real terminal and keychain. The key is read from stdin or typed without echo, never from argv. */
export function processProvidersEnvironment(io: CliIo, paths: HomePaths): ProvidersEnvironment {
  return {
    io,
    paths,
    readSecret: async (prompt, fromStdin) => {
      if (fromStdin || !process.stdin.isTTY) {
        const parts: Buffer[] = [];
        for await (const chunk of process.stdin) parts.push(chunk as Buffer);
        return Buffer.concat(parts).toString('utf8');
      }
      process.stderr.write(prompt);
      process.stdin.setRawMode(true);
      let value = '';
      try {
        for await (const chunk of process.stdin) {
          const text = (chunk as Buffer).toString('utf8');
          if (text === '\u0003') throw new UsageError('cancelled');
          if (text === '\r' || text === '\n') break;
          value += text === '\u007f' ? '' : text;
          if (text === '\u007f') value = value.slice(0, -1);
        }
      } finally {
        process.stdin.setRawMode(false);
        process.stdin.pause();
        process.stderr.write('\n');
      }
      return value;
    },
    storeSecret: (name, profile, value) => createSecretStore({ kind: loadConfig(paths.config).config.fermix_core.secret_store, profile, fermixHome: paths.home }).set(name, value),
  };
}
