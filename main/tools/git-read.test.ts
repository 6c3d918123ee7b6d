import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRead } from './git-read.js';
import { checkGitArgs } from './git-guard.js';
import { git, makeRepo } from './git-test-fixture.js';
import { failureOf, makeToolFixture, run, type ToolFixture } from './tool-test-fixture.js';

let fx: ToolFixture;
let repo: string;
beforeAll(() => {
  fx = makeToolFixture('fermix-git-read-');
  repo = makeRepo(path.join(fx.workspace, 'demo'), fx.home);
  makeRepo(path.join(fx.outside, 'other'), fx.home);
});
afterAll(async () => fx?.dispose());

const gitr = (args: Record<string, unknown>, ctx = fx.context()) => run(gitRead.executor, args, ctx);

describe('git_read executor', () => {
  it('runs status, log, diff, branch and show in a repository inside the roots', async () => {
    expect((await gitr({ command: 'status', repo: 'demo', args: ['--short'] })).text).toBe(' M README.md');
    expect((await gitr({ command: 'log', repo: 'demo', args: ['--format=%s'] })).text).toBe('second commit\nfirst commit');
    expect((await gitr({ command: 'diff', repo: 'demo' })).text).toContain('+uncommitted');
    expect((await gitr({ command: 'branch', repo: 'demo' })).text).toBe('* main');
    expect((await gitr({ command: 'show', repo: 'demo', args: ['HEAD~1:README.md'] })).text).toBe('# demo');
    expect((await gitr({ command: 'log', repo: 'demo', args: ['--oneline', 'HEAD~1..HEAD'] })).text).toMatch(/second commit$/);
  });

  it('works from a subfolder and reports the toplevel', async () => {
    mkdirSync(path.join(repo, 'sub'), { recursive: true });
    const result = await gitr({ command: 'status', repo: 'demo/sub', args: ['--short'] });
    expect(result.data).toMatchObject({ repo });
  });

  it('refuses the dangerous options of reference §4, their abbreviations, absolute paths and ..', () => {
    const refused = ['--no-index', '--git-dir=x', '--work-tree=x', '--exec-path', '--output=x', '--output-directory=x', '--outp=x',
      '--upload-pack=x', '--receive-pack=x', '--man-path', '--info-path', '/etc/passwd', '--relative=/tmp', '-O/etc/passwd', '../x', 'a/../../b', '~/x', 'ext::sh -c x'];
    for (const arg of refused) expect(() => checkGitArgs('git_read', [arg]), arg).toThrow(/refused/);
    expect(() => checkGitArgs('git_read', ['--oneline', 'main..feature', 'HEAD~2', '--', 'src/x.ts', '-n5'])).not.toThrow();
  });

  it('fails git_failed for refused arguments, before running anything', async () => {
    const error = await failureOf(gitr({ command: 'diff', repo: 'demo', args: ['--no-index', 'a', 'b'] }));
    expect(error.code).toBe('git_failed');
    expect(error.data).toMatchObject({ refused: true });
  });

  it('keeps branch read-only: creating, deleting or renaming is refused', async () => {
    for (const args of [['new-branch'], ['-D', 'main'], ['-m', 'x'], ['--set-upstream-to=origin/main']]) {
      expect((await failureOf(gitr({ command: 'branch', repo: 'demo', args }))).code, args.join(' ')).toBe('git_failed');
    }
    expect((await gitr({ command: 'branch', repo: 'demo', args: ['--list', 'ma*'] })).text).toBe('* main');
    expect((await gitr({ command: 'branch', repo: 'demo', args: ['--contains', 'HEAD'] })).text).toBe('* main');
  });

  it('fails invalid_repo outside the roots, in a non-repository, and for a missing folder', async () => {
    const outside = await failureOf(gitr({ command: 'status', repo: path.join(fx.outside, 'other') }));
    expect(outside.code).toBe('invalid_repo');
    mkdirSync(path.join(fx.workspace, 'plain'), { recursive: true });
    expect((await failureOf(gitr({ command: 'status', repo: 'plain' }))).code).toBe('invalid_repo');
    expect((await failureOf(gitr({ command: 'status', repo: 'missing' }))).code).toBe('invalid_repo');
  });

  it('fails git_failed with git\'s message for a bad revision', async () => {
    const error = await failureOf(gitr({ command: 'show', repo: 'demo', args: ['no-such-rev'] }));
    expect(error.code).toBe('git_failed');
    expect(error.message).toMatch(/unknown revision|bad revision/);
  });

  it('refuses a repository whose local config would run a program (filter driver)', async () => {
    const planted = makeRepo(path.join(fx.workspace, 'planted'), fx.home);
    const marker = path.join(fx.workspace, 'pwned');
    git(planted, fx.home, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    writeFileSync(path.join(planted, '.gitattributes'), '* filter=evil\n');
    const error = await failureOf(gitr({ command: 'status', repo: 'planted' }));
    expect(error.code).toBe('git_failed');
    expect(error.data).toMatchObject({ config_key: 'filter.evil.clean' });
    git(planted, fx.home, 'config', '--unset', 'filter.evil.clean');
    git(planted, fx.home, 'config', 'core.fsmonitor', `touch ${marker}; false`);
    git(planted, fx.home, 'config', 'core.pager', `touch ${marker}; cat`);
    await gitr({ command: 'status', repo: 'planted' });
    await gitr({ command: 'log', repo: 'planted' });
    // -c on the command line beats the repository's core.fsmonitor and core.pager: neither ran.
    expect(existsSync(marker)).toBe(false);
  });
});

describe('git_read and a repository above the roots', () => {
  it('refuses a work tree whose toplevel is outside the roots (a dotfiles repo in $HOME)', async () => {
    const dot = makeToolFixture('fermix-git-dotfiles-');
    try {
      makeRepo(dot.home, dot.home);
      const error = await failureOf(run(gitRead.executor, { command: 'status' }, dot.context()));
      expect(error.code).toBe('invalid_repo');
      expect(error.message).toContain(`toplevel (${dot.home})`);
    } finally {
      await dot.dispose();
    }
  });
});
