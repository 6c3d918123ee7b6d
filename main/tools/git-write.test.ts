import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitWrite } from './git-write.js';
import { git, makeRepo } from './git-test-fixture.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
let repo: string;
beforeAll(() => {
  fx = makeToolFixture('fermix-git-write-');
  repo = makeRepo(path.join(fx.workspace, 'demo'), fx.home);
});
afterAll(async () => fx?.dispose());

const gitw = (args: Record<string, unknown>, ctx = fx.context()) => run(gitWrite.executor, args, ctx);

describe('git_write executor', () => {
  it('adds and commits, with a message that may look like a path', async () => {
    writeFileSync(path.join(repo, 'new.txt'), 'new\n');
    await gitw({ command: 'add', repo: 'demo', args: ['new.txt', 'README.md'] });
    expect(git(repo, fx.home, 'diff', '--cached', '--name-only')).toBe('README.md\nnew.txt\n');
    const result = await gitw({ command: 'commit', repo: 'demo', args: ['-m', '/fix: see ../notes'] });
    expect(result.text).toContain('2 files changed');
    expect(git(repo, fx.home, 'log', '-1', '--format=%s')).toBe('/fix: see ../notes\n');
  });

  it('checks out a new branch and back', async () => {
    await gitw({ command: 'checkout', repo: 'demo', args: ['-b', 'feature'] });
    expect(git(repo, fx.home, 'branch', '--show-current')).toBe('feature\n');
    await gitw({ command: 'checkout', repo: 'demo', args: ['main'] });
    expect(git(repo, fx.home, 'branch', '--show-current')).toBe('main\n');
  });

  it('pulls from a remote inside the roots', async () => {
    const upstream = makeRepo(path.join(fx.workspace, 'upstream'), fx.home);
    const clone = path.join(fx.workspace, 'clone');
    git(fx.workspace, fx.home, 'clone', '-q', upstream, clone);
    writeFileSync(path.join(upstream, 'later.txt'), 'later\n');
    git(upstream, fx.home, 'add', 'later.txt');
    git(upstream, fx.home, 'commit', '-q', '-m', 'later');
    await gitw({ command: 'pull', repo: 'clone', args: ['--ff-only'] });
    expect(existsSync(path.join(clone, 'later.txt'))).toBe(true);
  });

  it('runs no hooks: a planted pre-commit hook does not run', async () => {
    const hook = path.join(repo, '.git', 'hooks', 'pre-commit');
    const marker = path.join(fx.workspace, 'hook-ran');
    mkdirSync(path.dirname(hook), { recursive: true });
    writeFileSync(hook, `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(hook, 0o755);
    writeFileSync(path.join(repo, 'hooked.txt'), 'x\n');
    await gitw({ command: 'add', repo: 'demo', args: ['hooked.txt'] });
    await gitw({ command: 'commit', repo: 'demo', args: ['-m', 'hooked'] });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses push with push_deferred and unknown commands with unknown_command', async () => {
    const push = await failureOf(gitw({ command: 'push', repo: 'demo' }));
    expect(push.code).toBe('push_deferred');
    expect((await failureOf(gitw({ command: 'reset', repo: 'demo', args: ['--hard'] }))).code).toBe('unknown_command');
  });

  it('refuses dangerous arguments (git_failed) and repositories outside the roots (sandbox_denied)', async () => {
    expect((await failureOf(gitw({ command: 'pull', repo: 'demo', args: ['--upload-pack=touch x', 'origin'] }))).code).toBe('git_failed');
    expect((await failureOf(gitw({ command: 'add', repo: 'demo', args: ['/etc/passwd'] }))).code).toBe('git_failed');
    expect((await failureOf(gitw({ command: 'commit', repo: 'demo', args: ['-F', '../../config.toml'] }))).code).toBe('git_failed');
    const other = makeRepo(path.join(fx.outside, 'other'), fx.home);
    expect((await failureOf(gitw({ command: 'add', repo: other, args: ['README.md'] }))).code).toBe('sandbox_denied');
  });

  it('fails git_failed with git\'s words when git refuses (nothing to commit, not a repo)', async () => {
    const nothing = await failureOf(gitw({ command: 'commit', repo: 'demo', args: ['-m', 'empty'] }));
    expect(nothing.code).toBe('git_failed');
    expect(nothing.message).toContain('nothing');
    mkdirSync(path.join(fx.workspace, 'plain'), { recursive: true });
    expect((await failureOf(gitw({ command: 'add', repo: 'plain', args: ['.'] }))).code).toBe('git_failed');
  });

  it('opens no editor: a commit without -m fails instead of hanging', async () => {
    writeFileSync(path.join(repo, 'noeditor.txt'), 'x\n');
    await gitw({ command: 'add', repo: 'demo', args: ['noeditor.txt'] });
    expect((await failureOf(gitw({ command: 'commit', repo: 'demo' }))).code).toBe('git_failed');
  });
});
