import type { HomePaths } from '../../config/home.js';
import { loadConfig } from '../../config/config-file.js';
import { SECRET_NAME } from '../../secrets/keychain.js';
import { createSecretStore } from '../../secrets/secret-store.js';
import { migrateSecrets } from '../../secrets/migrate.js';
import { EXIT, UsageError, type CliIo } from '../output.js';
import { readHiddenInput } from '../hidden-input.js';

/**
 * Refuses a malformed NAME without repeating it: `fermix secrets set OPENAI_API_KEY=sk-…` puts the value
 * where the name goes, and the keychain's own "not a valid secret name" error would print it back (into
 * the terminal's scrollback, CI logs, screen shares). Only the part before "=" is ever shown.
 */
export function checkSecretNameArgument(sub: string, name: string): void {
  if (SECRET_NAME.test(name)) return;
  const equals = name.indexOf('=');
  if (equals >= 0) {
    const before = name.slice(0, equals);
    const shown = SECRET_NAME.test(before) ? before : 'NAME';
    throw new UsageError(`fermix secrets ${sub} takes the secret's name only, not NAME=value; the value was not stored and is not shown here. If it was a real secret, clear your shell history (it is there now). Run \`fermix secrets ${sub} ${shown}\`${sub === 'set' ? ` and type the value, or pipe it: printf '%s' "$VALUE" | fermix secrets set ${shown} --stdin` : ''}.`);
  }
  throw new UsageError(`That is not a valid secret name (${name.length} characters; use letters, digits and underscores, like OPENAI_API_KEY). It is not shown here in case it holds a value. Run \`fermix secrets ${sub} NAME\`.`);
}

export async function secretsVerb(io: CliIo, paths: HomePaths, rest: string[], options: { json: boolean; stdin: boolean; to?: string; names?: string[] }): Promise<number> {
  const [sub, name, extra] = rest;
  if ((sub === 'set' || sub === 'clear' || sub === 'status') && name) checkSecretNameArgument(sub, name);
  const core = loadConfig(paths.config).config.fermix_core;
  const profile = core.profile;
  if (sub === 'migrate') {
    if (options.to !== 'keyring' && options.to !== 'file') throw new UsageError('usage: fermix secrets migrate --to keyring|file [--name NAME]…');
    for (const extraName of options.names ?? []) checkSecretNameArgument('migrate', extraName);
    const result = migrateSecrets({ configFile: paths.config, fermixHome: paths.home, to: options.to, extraNames: options.names ?? [] });
    if (options.json) io.out(JSON.stringify({ schema_version: 1, ok: true, result }));
    else {
      io.out(result.from === result.to && result.moved.length === 0 ? `Secrets already live in ${result.label}.` : `Moved ${result.moved.length} secret(s) to ${result.label}${result.moved.length ? `: ${result.moved.join(', ')}` : ''}. [fermix_core] secret_store = "${result.to}".`);
      if (result.missing.length) io.out(`Not found in the old store (nothing to move): ${result.missing.join(', ')}.`);
      if (result.to === 'file') io.out('The file store is a 0600 file readable by any program of your account; `fermix doctor` keeps reminding you.');
    }
    return EXIT.ok;
  }
  const keychain = createSecretStore({ kind: core.secret_store, profile, fermixHome: paths.home });
  if (sub === 'set') {
    if (!name) throw new UsageError('usage: fermix secrets set NAME [--stdin]');
    if (extra !== undefined) throw new UsageError(`fermix secrets set takes no value on the command line (it would be visible in \`ps\` and your shell history). Run \`fermix secrets set ${name}\` and type it, or pipe it: printf '%s' "$VALUE" | fermix secrets set ${name} --stdin`);
    keychain.set(name, await readHiddenInput(io, `Value for ${name}`, options.stdin));
    io.out(options.json ? JSON.stringify({ schema_version: 1, ok: true, result: { name, stored: true, store: keychain.kind } }) : `Stored ${name} in ${keychain.label}.`);
    return EXIT.ok;
  }
  if (sub === 'clear') {
    if (!name) throw new UsageError('usage: fermix secrets clear NAME');
    const deleted = keychain.clear(name);
    io.out(options.json ? JSON.stringify({ schema_version: 1, ok: true, result: { name, deleted } }) : deleted ? `Deleted ${name} from ${keychain.label}.` : `${name} was not in ${keychain.label}.`);
    return EXIT.ok;
  }
  if (sub === 'status') {
    if (!name) throw new UsageError('usage: fermix secrets status NAME');
    const present = keychain.has(name);
    io.out(options.json ? JSON.stringify({ schema_version: 1, ok: true, result: { name, present } }) : `${name}: ${present ? 'set' : 'not set'}`);
    return present ? EXIT.ok : EXIT.failure;
  }
  throw new UsageError('usage: fermix secrets set NAME [--stdin] | clear NAME | status NAME | migrate --to keyring|file');
}
