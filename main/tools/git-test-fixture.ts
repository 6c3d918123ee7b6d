/**
 * Test-only: real git repositories for the git_read / git_write tests. Setup runs git directly
 * (tests may spawn; production code reaches git only through the sandbox).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function git(cwd: string, home: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { PATH: process.env.PATH, HOME: home, LANG: 'C' }, encoding: 'utf8' });
}

/** A repository with two commits on `main` and one uncommitted change. */
export function makeRepo(dir: string, home: string): string {
  writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Test Owner\n\temail = owner@example.test\n[init]\n\tdefaultBranch = main\n');
  mkdirSync(dir, { recursive: true });
  git(dir, home, 'init', '-q');
  writeFileSync(path.join(dir, 'README.md'), '# demo\n');
  git(dir, home, 'add', 'README.md');
  git(dir, home, 'commit', '-q', '-m', 'first commit');
  writeFileSync(path.join(dir, 'README.md'), '# demo\n\nmore\n');
  git(dir, home, 'commit', '-q', '-am', 'second commit');
  writeFileSync(path.join(dir, 'README.md'), '# demo\n\nmore\nuncommitted\n');
  return dir;
}
