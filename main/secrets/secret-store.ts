/**
 * The one way the daemon and the CLI reach secrets: the OS keychain by default, or the 0600 file store
 * when `[fermix_core] secret_store = "file"` says so (never a silent fallback from one to the other).
 * Both check names and refuse empty values the same way.
 */
import { FermixError } from '../core/errors.js';
import { createFileSecretStore } from './file-store.js';
import { createKeychain, SECRET_NAME, type Keychain } from './keychain.js';

export type SecretStoreKind = 'keyring' | 'file';

export interface SecretStore extends Keychain {
  readonly kind: SecretStoreKind;
  /** For people: "the OS keychain" or "the secret file ~/.fermix/secrets/general.json". */
  readonly label: string;
}

export interface SecretStoreOptions {
  kind: SecretStoreKind;
  profile?: string;
  fermixHome: string;
}

export function createSecretStore(options: SecretStoreOptions): SecretStore {
  if (options.kind === 'keyring') return { ...createKeychain({ profile: options.profile }), kind: 'keyring', label: 'the OS keychain' };
  const file = createFileSecretStore({ fermixHome: options.fermixHome, profile: options.profile });
  const checked = <T>(name: string, work: () => T): T => {
    if (!SECRET_NAME.test(name)) {
      throw new FermixError({ code: 'invalid_secret_name', message: 'That is not a valid secret name.', hint: 'Use letters, digits and underscores, like OPENAI_API_KEY.' });
    }
    return work();
  };
  return {
    kind: 'file',
    label: `the secret file ${file.file}`,
    get: (name) => checked(name, () => file.get(name)),
    has: (name) => checked(name, () => file.has(name)),
    clear: (name) => checked(name, () => file.clear(name)),
    set: (name, value) =>
      checked(name, () => {
        if (value.length === 0) throw new FermixError({ code: 'empty_secret', message: `No value was given for ${name}.`, hint: `Run \`fermix secrets set ${name}\` and type the value, or pipe it in with --stdin.` });
        file.set(name, value);
      }),
  };
}
