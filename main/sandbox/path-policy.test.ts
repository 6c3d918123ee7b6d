import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { createPathPolicy, type PathPolicyOptions } from './path-policy.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

let dirs: SandboxDirs;
beforeEach(() => {
  dirs = makeSandboxDirs();
});
afterEach(() => dirs.cleanup());

const policyFor = (extra: Partial<PathPolicyOptions> = {}) =>
  createPathPolicy({ mode: 'standard', home: dirs.home, fermixHome: dirs.fermixHome, workspace: dirs.workspace, ...extra });

function refusal(fn: () => unknown): FermixError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(FermixError);
    return error as FermixError;
  }
  throw new Error('expected a refusal, but the call was allowed');
}

describe('path policy: roots per mode', () => {
  it('allows the workspace and resolves relative paths against it', () => {
    const policy = policyFor();
    expect(policy.checkRead('hello.txt')).toBe(path.join(dirs.workspace, 'hello.txt'));
    expect(policy.checkWrite('new/dir/file.txt')).toBe(path.join(dirs.workspace, 'new/dir/file.txt'));
  });

  it('refuses outside the roots with the Fermix message and a grant hint', () => {
    const error = refusal(() => policyFor().checkRead(path.join(dirs.outside, 'notes.txt')));
    expect(error.code).toBe('sandbox_denied');
    expect(error.data).toMatchObject({ reason: 'outside_root', suggested_grant: dirs.outside });
    expect(error.message).toBe(`Path is outside the sandbox roots: ${path.join(dirs.outside, 'notes.txt')}.`);
    expect(error.hint).toContain(`fermix grant path ${dirs.outside}`);
    expect(error.hint).toContain('request_directory_access');
  });

  it('strict: workspace and grants only — no skills folder, no daemon cwd', () => {
    const project = path.join(dirs.home, 'projects', 'app');
    const strict = policyFor({ mode: 'strict', daemonCwd: project, allowedRoots: [dirs.outside] });
    expect(strict.checkRead(path.join(dirs.outside, 'notes.txt'))).toContain('notes.txt');
    expect(refusal(() => strict.checkRead(path.join(dirs.fermixHome, 'skills', 'x'))).data?.reason).toBe('outside_root');
    expect(refusal(() => strict.checkRead(path.join(project, 'a'))).data?.reason).toBe('outside_root');
  });

  it('standard: skills, daemon cwd and request cwd strictly inside home, never home itself', () => {
    const project = path.join(dirs.home, 'projects', 'app');
    const standard = policyFor({ daemonCwd: dirs.home });
    expect(standard.checkRead(path.join(dirs.fermixHome, 'skills', 'x'))).toContain('skills');
    expect(refusal(() => standard.checkRead(path.join(dirs.home, 'notes.md'))).data?.reason).toBe('outside_root');
    expect(standard.checkWrite(path.join(project, 'a'), { requestCwd: project })).toBe(path.join(project, 'a'));
    expect(refusal(() => standard.checkWrite(path.join(dirs.outside, 'a'), { requestCwd: dirs.outside })).data?.reason).toBe('outside_root');
    expect(policyFor({ daemonCwd: project }).checkRead(path.join(project, 'a'))).toBe(path.join(project, 'a'));
  });

  it('open: all of home, still not protected paths, still not outside home', () => {
    const open = policyFor({ mode: 'open' });
    expect(open.checkWrite(path.join(dirs.home, 'notes.md'))).toBe(path.join(dirs.home, 'notes.md'));
    expect(refusal(() => open.checkRead(path.join(dirs.home, '.ssh', 'id_rsa'))).data?.reason).toBe('protected_path');
    expect(refusal(() => open.checkRead(path.join(dirs.outside, 'notes.txt'))).data?.reason).toBe('outside_root');
  });

  it('blocked roots win over grants and over the workspace', () => {
    const blocked = path.join(dirs.workspace, 'private');
    mkdirSync(blocked);
    const policy = policyFor({ allowedRoots: [dirs.outside], blockedRoots: [blocked, path.join(dirs.outside, 'sub')] });
    const error = refusal(() => policy.checkWrite(path.join(blocked, 'x')));
    expect(error.data).toMatchObject({ reason: 'blocked_root', matched: blocked });
    expect(refusal(() => policy.checkRead(path.join(dirs.outside, 'SUB', 'x'))).data?.reason).toBe('blocked_root');
    expect(policy.checkRead(path.join(dirs.outside, 'notes.txt'))).toContain('notes.txt');
  });
});

describe('path policy: protected paths', () => {
  it.each([
    ['config.toml'], ['CONFIG.TOML'], ['config.toml.'], ['config.toml.bak'], ['fermix.db'], ['FERMIX.DB'], ['fermix.db-wal'],
    ['fermix.db-shm'], ['memory.db'], ['other.sqlite3'], ['logs/fermix.log'], ['run/daemon.sock'], ['auth.json'], ['secrets/x'],
  ])('refuses $FERMIX_HOME/%s even when FERMIX_HOME is granted-adjacent', (rel) => {
    const policy = policyFor({ mode: 'open' });
    const error = refusal(() => policy.checkRead(path.join(dirs.fermixHome, rel)));
    expect(error.data?.reason).toBe('protected_path');
  });

  it('refuses home secrets in every mode, even inside a grant', () => {
    const grantedConfig = path.join(dirs.home, '.config');
    for (const mode of ['strict', 'standard', 'open'] as const) {
      const policy = policyFor({ mode, allowedRoots: [grantedConfig] });
      for (const rel of ['.ssh/id_rsa', '.SSH/id_rsa', '.aws/credentials', '.gnupg/x', '.bashrc', '.zsh_history', '.config/fermix/env']) {
        expect(refusal(() => policy.checkRead(path.join(dirs.home, rel))).data?.reason).toBe('protected_path');
      }
    }
  });

  it('refuses OS roots and /etc/shadow', () => {
    const policy = policyFor({ mode: 'open', allowedRoots: [] });
    expect(refusal(() => policy.checkRead('/etc/shadow')).data?.reason).toBe('protected_path');
    expect(refusal(() => policy.checkRead('/usr/bin/env')).data?.reason).toBe('protected_path');
  });

  it('keeps plugin code readable but not writable', () => {
    const installed = path.join(dirs.fermixHome, 'plugins', 'installed', 'gmail');
    mkdirSync(installed, { recursive: true });
    const policy = policyFor({ mode: 'open' });
    expect(policy.checkRead(path.join(installed, 'plugin.json'))).toContain('plugin.json');
    expect(refusal(() => policy.checkWrite(path.join(installed, 'plugin.json'))).data?.reason).toBe('protected_path');
  });

  it('accepts extra protected paths from the caller', () => {
    const secretDir = path.join(dirs.workspace, 'vault');
    const policy = policyFor({ protectedPaths: [secretDir] });
    expect(refusal(() => policy.checkRead(path.join(secretDir, 'a'))).data?.reason).toBe('protected_path');
  });
});

describe('path policy: symlinks and traversal', () => {
  it('refuses ../ traversal out of the workspace', () => {
    const error = refusal(() => policyFor().checkRead('../../../outside/notes.txt'));
    expect(error.data).toMatchObject({ reason: 'outside_root', path: path.join(dirs.outside, 'notes.txt') });
    expect(refusal(() => policyFor().checkWrite('sub/../../config.toml')).data?.reason).toBe('protected_path');
  });

  it('follows a symlink out of the workspace and refuses it', () => {
    symlinkSync(dirs.outside, path.join(dirs.workspace, 'escape'));
    const error = refusal(() => policyFor().checkRead('escape/notes.txt'));
    expect(error.data).toMatchObject({ reason: 'outside_root', path: path.join(dirs.outside, 'notes.txt') });
  });

  it('refuses a dangling symlink whose target would be created outside', () => {
    symlinkSync(path.join(dirs.outside, 'created-by-write.txt'), path.join(dirs.workspace, 'dangling'));
    expect(refusal(() => policyFor().checkWrite('dangling')).data?.reason).toBe('outside_root');
  });

  it('applies .. after following a link, as the kernel does', () => {
    const deep = path.join(dirs.outside, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    symlinkSync(deep, path.join(dirs.workspace, 'deep'));
    // Lexically this is workspace/x; physically it is outside/a/x.
    const error = refusal(() => policyFor().checkWrite('deep/../x'));
    expect(error.data).toMatchObject({ reason: 'outside_root', path: path.join(dirs.outside, 'a', 'x') });
  });

  it('refuses a symlink that leads into a protected path', () => {
    symlinkSync(path.join(dirs.home, '.ssh'), path.join(dirs.workspace, 'keys'));
    expect(refusal(() => policyFor().checkRead('keys/id_rsa')).data?.reason).toBe('protected_path');
  });

  it('answers too_many_symlinks for a loop', () => {
    symlinkSync(path.join(dirs.workspace, 'loop-b'), path.join(dirs.workspace, 'loop-a'));
    symlinkSync(path.join(dirs.workspace, 'loop-a'), path.join(dirs.workspace, 'loop-b'));
    const error = refusal(() => policyFor().checkRead('loop-a/file'));
    expect(error.data?.reason).toBe('too_many_symlinks');
    expect(error.hint).toContain('ls -l');
  });

  it('allows a symlink that stays inside the workspace', () => {
    mkdirSync(path.join(dirs.workspace, 'real'));
    writeFileSync(path.join(dirs.workspace, 'real', 'f'), 'x');
    symlinkSync(path.join(dirs.workspace, 'real'), path.join(dirs.workspace, 'alias'));
    expect(policyFor().checkRead('alias/f')).toBe(path.join(dirs.workspace, 'real', 'f'));
  });

  it('refuses NUL bytes as invalid_path', () => {
    expect(refusal(() => policyFor().checkRead('a\0b')).code).toBe('invalid_path');
  });
});

describe('path policy: grants and explain', () => {
  it.each([
    ['/', 'filesystem root'], ['/etc', 'operating-system root'], ['/usr/local', 'inside an operating-system root'], ['/var', 'operating-system root'],
    ['/proc', 'operating-system root'],
  ])('refuses the grant %s as unsafe_root', (root, why) => {
    const error = refusal(() => policyFor().checkGrant(root));
    expect(error.code).toBe('unsafe_root');
    expect(error.message).toContain(why);
  });

  it('refuses home, FERMIX_HOME, their parents, protected paths and Fermix internals', () => {
    const policy = policyFor();
    for (const root of [dirs.home, '~', dirs.fermixHome, dirs.root, path.join(dirs.home, '.ssh'), path.join(dirs.fermixHome, 'plugins'), path.join(dirs.fermixHome, 'logs')]) {
      expect(refusal(() => policy.checkGrant(root)).code, root).toBe('unsafe_root');
    }
  });

  it('accepts a project folder, and says when a folder is already allowed', () => {
    const policy = policyFor();
    expect(policy.checkGrant(path.join(dirs.home, 'projects', 'app'))).toEqual({ path: path.join(dirs.home, 'projects', 'app'), alreadyAllowed: false });
    expect(policy.checkGrant(path.join(dirs.workspace, 'sub'))).toEqual({ path: path.join(dirs.workspace, 'sub'), alreadyAllowed: true });
  });

  it('explains both decisions and the fix', () => {
    const text = policyFor().explain(path.join(dirs.outside, 'notes.txt'));
    expect(text).toContain('sandbox mode: standard');
    expect(text).toContain('read: refused (outside_root)');
    expect(text).toContain(`fix: Run \`fermix grant path ${dirs.outside}\``);
    expect(policyFor().explain('hello.txt')).toContain(`read: allowed (inside root ${dirs.workspace})`);
  });

  it('lists existing protected paths for the jail, including case and suffix variants', () => {
    writeFileSync(path.join(dirs.fermixHome, 'MEMORY.DB-wal'), 'x');
    const { hidden } = policyFor().jailMounts();
    for (const p of ['.ssh', '.bashrc']) expect(hidden).toContain(path.join(dirs.home, p));
    for (const p of ['config.toml', 'fermix.db', 'fermix.db-wal', 'MEMORY.DB-wal', 'logs', 'run']) expect(hidden).toContain(path.join(dirs.fermixHome, p));
    expect(hidden).not.toContain(dirs.workspace);
  });
});
