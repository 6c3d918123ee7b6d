import { describe, expect, it } from 'vitest';
import { checkSecretNameArgument } from './secrets.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', '..', '..', 'bin', 'fermix.cjs');

describe('fermix secrets NAME checks', () => {
  const value = `sk-proj-${'Zq9'.repeat(15)}`;

  it('refuses NAME=value without echoing the value, and names the right command', () => {
    let message = '';
    try {
      checkSecretNameArgument('set', `OPENAI_API_KEY=${value}`);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('fermix secrets set OPENAI_API_KEY');
    expect(message).toContain('--stdin');
    expect(message).not.toContain('Zq9');
  });

  it('refuses an invalid name without echoing it', () => {
    expect(() => checkSecretNameArgument('status', `has space ${value}`)).toThrow(/not a valid secret name/);
    try {
      checkSecretNameArgument('status', `has space ${value}`);
    } catch (error) {
      expect((error as Error).message).not.toContain('Zq9');
    }
    expect(() => checkSecretNameArgument('set', 'OPENAI_API_KEY')).not.toThrow();
  });

  it('the real CLI exits non-zero and prints no part of the value', () => {
    const home = mkdtempSync(join(tmpdir(), 'fermix-secrets-'));
    const result = spawnSync(process.execPath, [BIN, 'secrets', 'set', `DB_PASSWORD=${value}`], { env: { ...process.env, FERMIX_HOME: home }, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('fermix secrets set DB_PASSWORD');
    expect(result.stdout + result.stderr).not.toContain('Zq9');
  });
});
