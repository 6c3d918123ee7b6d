import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileRead } from '../tools/file-read.js';
import { failureOf, makeToolFixture, run } from '../tools/tool-test-fixture.js';
import { createPathPolicy } from './path-policy.js';
import { createProtectedMatcher, existingProtectedPaths } from './protected-paths.js';
import { makeSandboxDirs } from './test-fixture.js';

const dirs = makeSandboxDirs('fermix-protected-');
afterAll(() => dirs.cleanup());
const matcher = createProtectedMatcher({ home: dirs.home, fermixHome: dirs.fermixHome });
const inHome = (rel: string) => path.join(dirs.home, rel);

/** The usual credential files (hardening issue, item 9), each as a file or a path inside the folder. */
const CREDENTIALS = [
  '.env', '.env.local', '.env.production', '.ENV', '.Env.Local', '.envrc', '.netrc', '.NETRC', '.pgpass', '.npmrc', '.pypirc',
  '.git-credentials', '.docker/config.json', '.kube/config', '.aws/credentials', '.AWS/config', '.config/gcloud/credentials.db',
  '.config/gcloud/application_default_credentials.json', '.gnupg/private-keys-v1.d/x.key', '.password-store/bank.gpg',
  '.local/share/gopass/stores/root/x.gpg', '.config/op/config', '.config/Bitwarden CLI/data.json', '.config/bitwarden/data.json',
  '.config/1Password/settings/settings.json', 'Library/Group Containers/2BUA8C4S2C.com.1password/Library/x.sqlite',
  'Documents/Passwords.KDBX', '.my.cnf', '.vault-token', '.cargo/credentials.toml',
];

describe('protected paths: credential files in home', () => {
  it('refuses the usual credential files, case-insensitively, for reads and writes', () => {
    for (const rel of CREDENTIALS) {
      expect(matcher.match(inHome(rel), 'read'), `read ${rel}`).toBeDefined();
      expect(matcher.match(inHome(rel), 'write'), `write ${rel}`).toBeDefined();
    }
  });

  it('leaves look-alikes alone: project .env files below home, other dotfiles and names', () => {
    for (const rel of ['projects/app/.env', 'projects/app/.env.local', '.fermix/workspace/.env', 'notes.env', '.environ-notes/../x', '.gitconfig', '.config/gcloudx', 'Documents/kdbx-howto.md']) {
      expect(matcher.match(path.resolve(inHome(rel)), 'read'), rel).toBeUndefined();
    }
  });

  it('the path policy refuses ~/.env in open mode (home is a root) but reads a workspace .env', () => {
    writeFileSync(inHome('.env'), 'OPENAI_API_KEY=sk-test\n');
    writeFileSync(path.join(dirs.workspace, '.env'), 'PORT=3000\n');
    const policy = createPathPolicy({ mode: 'open', home: dirs.home, fermixHome: dirs.fermixHome, workspace: dirs.workspace });
    let reason: unknown;
    try {
      policy.checkRead('~/.env.local');
    } catch (error) {
      reason = (error as { data?: { reason?: string } }).data?.reason;
    }
    expect(reason).toBe('protected_path');
    expect(policy.checkRead(path.join(dirs.workspace, '.env'))).toBe(path.join(dirs.workspace, '.env'));
    expect(policy.checkRead(inHome('projects/app/x.txt'))).toBe(inHome('projects/app/x.txt'));
  });

  it('protects the chat attachments store in $FERMIX_HOME', () => {
    expect(matcher.match(path.join(dirs.fermixHome, 'attachments', 'conv-1', 'a.png'), 'read')?.label).toBe('$FERMIX_HOME/attachments');
  });

  it('lists ~/.env* and a top-level .kdbx for the jail to hide', () => {
    writeFileSync(inHome('.env.Production'), 'X=1\n');
    writeFileSync(inHome('vault.kdbx'), 'kdbx');
    mkdirSync(inHome('.pgpass-dir-not-a-file'), { recursive: true });
    const { hidden } = existingProtectedPaths(matcher, dirs.fermixHome);
    for (const rel of ['.env', '.env.Production', 'vault.kdbx', '.pgpass-dir-not-a-file']) expect(hidden).toContain(inHome(rel));
    expect(hidden).not.toContain(path.join(dirs.workspace, '.env'));
  });

  it('file_read in open mode answers sandbox_denied for ~/.env with the protected label', async () => {
    const fx = makeToolFixture('fermix-protected-tool-', { mode: 'open' });
    try {
      writeFileSync(path.join(fx.home, '.env'), 'SECRET=1\n');
      const error = await failureOf(run(fileRead.executor, { path: '~/.env' }, fx.context()));
      expect(error.code).toBe('sandbox_denied');
      expect(error.data).toMatchObject({ reason: 'protected_path', matched: '~/.env (dotenv file)' });
    } finally {
      await fx.dispose();
    }
  });
});
