/**
 * `[fermix_core] secret_store = "file"`: the explicit choice for machines without a secret service
 * (headless servers, containers). One JSON file per profile under `$FERMIX_HOME/secrets/`, mode 0600 in
 * a 0700 folder, written atomically (temp file, fsync, rename, fsync of the folder), so a crash leaves
 * the old file or the new one, never half of each. Less protected than a keychain — any process of
 * the account can read it — which `fermix doctor` says (WARN). Values never reach a log or an error.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { FermixError } from '../core/errors.js';
import type { Keychain } from './keychain.js';

interface FileContents {
  version: 1;
  secrets: Record<string, string>;
}

export function secretsDir(fermixHome: string): string {
  return path.join(fermixHome, 'secrets');
}

export function secretFile(fermixHome: string, profile: string): string {
  const safe = /^[A-Za-z0-9_.-]{1,64}$/.test(profile) ? profile : 'general';
  return path.join(secretsDir(fermixHome), `${safe}.json`);
}

function corrupt(file: string, detail: string): FermixError {
  return new FermixError({
    code: 'secret_store_corrupt',
    message: `The secret file ${file} cannot be read: ${detail}.`,
    hint: `Move it aside and store the secrets again with \`fermix secrets set NAME\`, or switch back to the keychain with \`fermix secrets migrate --to keyring\`.`,
    data: { file },
  });
}

export function createFileSecretStore(options: { fermixHome: string; profile?: string }): Keychain & { file: string; names(): string[] } {
  const dir = secretsDir(options.fermixHome);
  const file = secretFile(options.fermixHome, options.profile ?? 'general');

  const read = (): FileContents => {
    if (!existsSync(file)) return { version: 1, secrets: {} };
    const stat = lstatSync(file);
    if (!stat.isFile()) throw corrupt(file, 'it is not a regular file');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw corrupt(file, 'it is not valid JSON');
    }
    const secrets = (parsed as FileContents | null)?.secrets;
    if (secrets === null || typeof secrets !== 'object' || Object.values(secrets).some((v) => typeof v !== 'string')) throw corrupt(file, 'it has no secrets table');
    return { version: 1, secrets: { ...secrets } };
  };

  const write = (contents: FileContents): void => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700); // an existing folder made by hand may be wider
    const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify(contents, null, 2));
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(fd);
    try {
      renameSync(temp, file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  };

  return {
    file,
    get: (name) => read().secrets[name] ?? null,
    has: (name) => read().secrets[name] !== undefined,
    set: (name, value) => {
      const contents = read();
      contents.secrets[name] = value;
      write(contents);
    },
    clear: (name) => {
      const contents = read();
      if (contents.secrets[name] === undefined) return false;
      delete contents.secrets[name];
      write(contents);
      return true;
    },
    names: () => Object.keys(read().secrets).sort(),
  };
}
