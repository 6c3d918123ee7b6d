/**
 * API keys for providers: a keychain reference (`@keyring:NAME`, reference §1.3: account `fermix`,
 * service `fermix:NAME`, or `fermix:<profile>:NAME` for a non-default profile) or an environment
 * variable name. Never plaintext in config. The keychain module is loaded lazily: a daemon whose
 * providers need no key (a local Ollama) never touches the keychain.
 */
import { createRequire } from 'node:module';
import { FermixError } from '../../core/errors.js';

export interface SecretReader {
  /** The value stored under NAME, or null when there is none. Throws `keyring_unavailable`. */
  keyring(name: string, profile: string): string | null;
  env(name: string): string | undefined;
}

type EntryClass = new (service: string, account: string) => { getPassword(): string | null };

let entryClass: EntryClass | undefined;
function loadEntry(): EntryClass {
  // createRequire: the N-API addon is CommonJS and must not be pulled into the bundle graph eagerly.
  entryClass ??= (createRequire(import.meta.url)('@napi-rs/keyring') as { Entry: EntryClass }).Entry;
  return entryClass;
}

export const KEYRING_ACCOUNT = 'fermix';

export function keyringServices(name: string, profile: string): string[] {
  return profile && profile !== 'general' ? [`fermix:${profile}:${name}`, `fermix:${name}`] : [`fermix:${name}`];
}

export const systemSecrets: SecretReader = {
  keyring(name, profile) {
    for (const service of keyringServices(name, profile)) {
      let value: string | null;
      try {
        const Entry = loadEntry();
        value = new Entry(service, KEYRING_ACCOUNT).getPassword();
      } catch (error) {
        throw new FermixError({
          code: 'keyring_unavailable',
          message: `The OS keychain could not be read for ${service}: ${(error as Error).message.split('\n')[0]}.`,
          hint: 'Unlock the keychain (on a headless Linux machine start gnome-keyring under D-Bus), or use api_key_env in [providers.<name>] instead.',
          cause: error,
        });
      }
      if (value) return value;
    }
    return null;
  },
  env: (name) => process.env[name],
};
