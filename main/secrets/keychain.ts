/**
 * Secrets in the OS keychain (reference §1.3): account `fermix`, service `fermix:NAME`, or
 * `fermix:<profile>:NAME` when a non-default `[fermix_core] profile` is set. Never plaintext in config,
 * never in argv. On a machine without a keychain the error names the fix instead of falling back to a file.
 * The N-API module is loaded lazily, so a daemon that needs no secret never touches the keychain.
 */
import { createRequire } from 'node:module';
import { cliCommand } from '../cli/invocation.js';
import { FermixError } from '../core/errors.js';

export const KEYCHAIN_ACCOUNT = 'fermix';
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

interface EntryLike {
  getPassword(): string | null;
  setPassword(value: string): void;
  deletePassword(): boolean;
}
type EntryClass = new (service: string, account: string) => EntryLike;

export interface Keychain {
  get(name: string): string | null;
  set(name: string, value: string): void;
  /** True when something was deleted. */
  clear(name: string): boolean;
  has(name: string): boolean;
}

export function keychainService(name: string, profile = 'general'): string {
  return profile && profile !== 'general' ? `fermix:${profile}:${name}` : `fermix:${name}`;
}

/**
 * The fix for a missing keychain, with `fermix` as it runs here (`npx fermix` in a checkout): the
 * command inside `sh -c "…"` is not one that localizeHint can rewrite, so it is built in.
 */
export function keyringUnavailableHint(invocation: string = cliCommand()): string {
  return `Unlock or start your keychain (on a headless Linux machine: \`dbus-run-session -- sh -c "gnome-keyring-daemon --unlock --components=secrets; ${invocation} daemon"\`), or switch to the file store: \`${invocation} secrets migrate --to file\` (sets \`[fermix_core] secret_store = "file"\`: a 0600 file under $FERMIX_HOME/secrets/).`;
}

function unavailable(action: string, name: string, error: unknown): FermixError {
  const detail = (error as Error)?.message?.split('\n')[0] ?? String(error);
  return new FermixError({
    code: 'keyring_unavailable',
    message: `The OS keychain could not ${action} ${name}: ${detail}.`,
    hint: keyringUnavailableHint(),
    data: { name },
    cause: error,
  });
}

function checkName(name: string): void {
  if (!SECRET_NAME.test(name)) {
    throw new FermixError({ code: 'invalid_secret_name', message: `"${name}" is not a valid secret name.`, hint: 'Use letters, digits and underscores, like OPENAI_API_KEY.' });
  }
}

export function createKeychain(options: { profile?: string; loadEntry?: () => EntryClass } = {}): Keychain {
  let entryClass: EntryClass | undefined;
  const Entry = () => (entryClass ??= options.loadEntry?.() ?? (createRequire(import.meta.url)('@napi-rs/keyring') as { Entry: EntryClass }).Entry);
  const entry = (name: string) => new (Entry())(keychainService(name, options.profile), KEYCHAIN_ACCOUNT);
  const run = <T>(action: string, name: string, work: () => T): T => {
    checkName(name);
    try {
      return work();
    } catch (error) {
      if (error instanceof FermixError) throw error;
      throw unavailable(action, name, error);
    }
  };
  return {
    get: (name) => run('read', name, () => entry(name).getPassword()),
    set: (name, value) => {
      if (value.length === 0) throw new FermixError({ code: 'empty_secret', message: `No value was given for ${name}.`, hint: `Run \`fermix secrets set ${name}\` and type the value, or pipe it in with --stdin.` });
      run('store', name, () => entry(name).setPassword(value));
    },
    clear: (name) => run('delete', name, () => entry(name).deletePassword()),
    has: (name) => run('read', name, () => entry(name).getPassword() !== null),
  };
}
