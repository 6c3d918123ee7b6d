/**
 * `[fermix_core] secret_store = "file"` for real: 0600 files in a 0700 folder, atomic under kill -9,
 * the CLI storing there, and `fermix secrets migrate` both ways against the real gnome-keyring that
 * `npm test` starts (ci/with-desktop.sh).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSecretStore, secretFile } from '../main/secrets/file-store.js';
import { createKeychain } from '../main/secrets/keychain.js';
import { runFermix, tempHome } from './support/daemon-process.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the file secret store', () => {
  it('keeps each profile in a 0600 file inside a 0700 folder, and narrows a wider folder', () => {
    const home = tempHome();
    mkdirSync(join(home, 'secrets'), { mode: 0o755 });
    const store = createFileSecretStore({ fermixHome: home, profile: 'work' });
    store.set('OPENAI_API_KEY', 'sk-file-store-value-1');
    expect(store.file).toBe(secretFile(home, 'work'));
    expect(mode(join(home, 'secrets'))).toBe(0o700);
    expect(mode(store.file)).toBe(0o600);
    expect(store.get('OPENAI_API_KEY')).toBe('sk-file-store-value-1');
    expect(createFileSecretStore({ fermixHome: home }).get('OPENAI_API_KEY')).toBeNull(); // another profile
    expect(store.clear('OPENAI_API_KEY')).toBe(true);
    expect(store.clear('OPENAI_API_KEY')).toBe(false);
    expect(readdirSync(join(home, 'secrets')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a corrupt file is a named error that does not print its contents', () => {
    const home = tempHome();
    mkdirSync(join(home, 'secrets'), { mode: 0o700 });
    writeFileSync(secretFile(home, 'general'), '{"secrets": {"A": "sk-half-written', { mode: 0o600 });
    const store = createFileSecretStore({ fermixHome: home });
    expect(() => store.get('A')).toThrow(/cannot be read: it is not valid JSON/);
    try {
      store.get('A');
    } catch (error) {
      expect(JSON.stringify(error)).not.toContain('sk-half-written');
    }
  });

  it('never leaves a torn file when the writer is killed mid-write', async () => {
    const home = tempHome();
    const script = `
      const { createFileSecretStore } = await import(${JSON.stringify(join(import.meta.dirname, '..', 'main', 'secrets', 'file-store.ts'))});
      const store = createFileSecretStore({ fermixHome: ${JSON.stringify(home)} });
      for (let i = 0; ; i += 1) store.set('K' + (i % 50), 'v'.repeat(2000) + i);`;
    for (let round = 0; round < 8; round += 1) {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore' });
      const file = secretFile(home, 'general');
      // Wait until the writer is in its loop (start-up time varies with machine load), then kill it at an
      // arbitrary point of the loop.
      const deadline = Date.now() + 20_000;
      while (!existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 30 + round * 37));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      expect(existsSync(file), 'the writer never wrote within 20 s').toBe(true);
      expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
      expect(mode(file)).toBe(0o600);
    }
  });

  it('the CLI stores into the file store when config.toml says so', () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.toml'), '[fermix_core]\nsecret_store = "file"\n');
    const stored = runFermix(home, ['secrets', 'set', 'BRAVE_API_KEY', '--stdin'], { input: 'brave-file-value\n' });
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.stdout).toContain('the secret file');
    expect(stored.stdout).not.toContain('brave-file-value');
    expect(createFileSecretStore({ fermixHome: home }).get('BRAVE_API_KEY')).toBe('brave-file-value');
    expect(runFermix(home, ['secrets', 'status', 'BRAVE_API_KEY']).code).toBe(0);
    const doctor = JSON.parse(runFermix(home, ['doctor', '--json']).stdout).result.checks.find((row: { id: string }) => row.id === 'secret_store');
    expect(doctor).toMatchObject({ status: 'WARN' });
    expect(doctor.fix).toContain('fermix secrets migrate --to keyring');
  });

  it('migrates from the keychain to the file and back, switching config.toml', () => {
    if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('No D-Bus session: run the suite with `npm test` (it starts gnome-keyring under dbus-run-session).');
    const home = tempHome();
    const name = `FERMIX_MIGRATE_${process.pid}`;
    writeFileSync(join(home, 'config.toml'), `[providers.main]\ntype = "openai"\nmodel = "gpt-4.1-mini"\napi_key_ref = "@keyring:${name}"\n`);
    createKeychain().set(name, 'sk-migrated-value-42');
    const toFile = runFermix(home, ['secrets', 'migrate', '--to', 'file', '--json']);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(JSON.parse(toFile.stdout).result).toMatchObject({ from: 'keyring', to: 'file', moved: [name] });
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toMatch(/secret_store = "file"/);
    expect(createFileSecretStore({ fermixHome: home }).get(name)).toBe('sk-migrated-value-42');
    expect(createKeychain().get(name)).toBeNull(); // moved, not copied
    const back = runFermix(home, ['setup', '--secret-store', 'keyring', '--migrate-secrets', '--json']);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout).result).toMatchObject({ from: 'file', to: 'keyring', moved: [name] });
    expect(createKeychain().get(name)).toBe('sk-migrated-value-42');
    expect(createFileSecretStore({ fermixHome: home }).get(name)).toBeNull();
    createKeychain().clear(name);
    expect(runFermix(home, ['secrets', 'migrate', '--to', 'somewhere']).code).toBe(2);
  });
});
