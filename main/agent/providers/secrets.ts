/**
 * API keys for providers: a keychain reference (`@keyring:NAME`: account `fermix`, service
 * `fermix:NAME`, reference §1.3; the keychain itself is main/secrets) or an environment variable
 * name. Never plaintext in config. Behind an interface so tests can hand in keys without a keychain.
 */
import { createKeychain, KEYCHAIN_ACCOUNT, keychainService } from '../../secrets/keychain.js';

export interface SecretReader {
  /** The value stored under NAME, or null when there is none. Throws `keyring_unavailable`. */
  keyring(name: string, profile: string): string | null;
  env(name: string): string | undefined;
}

export const KEYRING_ACCOUNT = KEYCHAIN_ACCOUNT;

export function keyringServices(name: string, profile: string): string[] {
  return [keychainService(name, profile)];
}

export const systemSecrets: SecretReader = {
  keyring: (name, profile) => createKeychain({ profile }).get(name),
  env: (name) => process.env[name],
};
