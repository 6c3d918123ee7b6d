/**
 * `fermix secrets migrate --to keyring|file` (and Fermix's `fermix setup --secret-store … --migrate-secrets`):
 * copies every secret Fermix knows of into the other store, switches `[fermix_core] secret_store`, then
 * removes the copies from the old store — in that order, so a failure half-way leaves every secret
 * readable from the store config.toml names.
 *
 * Which names: a keychain cannot be listed without a platform-specific search, so from the keychain we
 * move the names config.toml refers to (`@keyring:NAME` anywhere, plus the transcription key) and any
 * `--name`; from the file store, every name in the file.
 */
import { loadConfig, updateConfig } from '../config/config-file.js';
import { FermixError } from '../core/errors.js';
import { createFileSecretStore } from './file-store.js';
import { createSecretStore, type SecretStoreKind } from './secret-store.js';

/** Names the daemon reads from the secret store without a `@keyring:` reference in config.toml. */
const IMPLICIT_NAMES = ['TRANSCRIPTION_API_KEY'];

export interface MigrationResult {
  from: SecretStoreKind;
  to: SecretStoreKind;
  moved: string[];
  missing: string[];
  label: string;
}

export function referencedSecretNames(raw: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      const match = /^@keyring:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
      if (match) found.add(match[1]);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(raw);
  return [...found].sort();
}

export function migrateSecrets(options: { configFile: string; fermixHome: string; to: SecretStoreKind; extraNames?: string[] }): MigrationResult {
  const loaded = loadConfig(options.configFile);
  const { profile, secret_store: from } = loaded.config.fermix_core;
  const target = createSecretStore({ kind: options.to, profile, fermixHome: options.fermixHome });
  if (from === options.to) return { from, to: options.to, moved: [], missing: [], label: target.label };
  const source = createSecretStore({ kind: from, profile, fermixHome: options.fermixHome });
  const names = new Set([...referencedSecretNames(loaded.raw), ...IMPLICIT_NAMES, ...(options.extraNames ?? [])]);
  if (from === 'file') for (const name of createFileSecretStore({ fermixHome: options.fermixHome, profile }).names()) names.add(name);
  const moved: string[] = [];
  const missing: string[] = [];
  for (const name of [...names].sort()) {
    const value = source.get(name);
    if (value === null) {
      missing.push(name);
      continue;
    }
    target.set(name, value);
    if (target.get(name) !== value) {
      throw new FermixError({ code: 'secret_migration_failed', message: `${name} did not read back the same from ${target.label}; nothing was switched.`, hint: 'Fix the target store (unlock the keychain, free disk space), then run `fermix secrets migrate` again.', data: { name } });
    }
    moved.push(name);
  }
  updateConfig(options.configFile, (raw) => {
    const core = (raw.fermix_core ??= {}) as Record<string, unknown>;
    core.secret_store = options.to;
  });
  for (const name of moved) source.clear(name);
  return { from, to: options.to, moved, missing: from === 'file' ? missing : missing.filter((name) => !IMPLICIT_NAMES.includes(name)), label: target.label };
}
