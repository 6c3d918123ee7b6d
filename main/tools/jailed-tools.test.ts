/**
 * The git and shell tools inside the OS jail (bubblewrap): git must still read and write a
 * repository in a sandbox root (bound read-write), and a run-time path outside stays unwritable.
 * Without a working bwrap these tests fail and say why (conventions: no silent skips).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJail, createSandbox, sandboxConfigSchema, type Jail, type Sandbox } from '../sandbox/index.js';
import { makeSandboxDirs, type SandboxDirs } from '../sandbox/test-fixture.js';
import { git, makeRepo } from './git-test-fixture.js';
import { gitRead } from './git-read.js';
import { gitWrite } from './git-write.js';
import { shell } from './shell.js';
import { failureOf, run } from './tool-test-fixture.js';

let dirs: SandboxDirs;
let jail: Jail;
let sandbox: Sandbox;
let repo: string;
/** Outside every root and outside /tmp (the jail's /tmp is private, so /tmp would prove nothing). */
let varTmp: string;

beforeAll(async () => {
  dirs = makeSandboxDirs('fermix-jailed-tools-');
  varTmp = mkdtempSync('/var/tmp/fermix-jailed-tools-');
  jail = await createJail({ enabled: true });
  sandbox = createSandbox({ config: sandboxConfigSchema.parse({}), home: dirs.home, fermixHome: dirs.fermixHome, daemonEnv: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dirs.home, LANG: 'C.UTF-8' }, jail });
  repo = makeRepo(path.join(dirs.workspace, 'demo'), dirs.home);
  // The fixture lives under /tmp, which the jail replaces with a private tmpfs: the test HOME (and its
  // ~/.gitconfig) is invisible inside, unlike a real home. So the identity goes in the repository.
  git(repo, dirs.home, 'config', 'user.name', 'Repo Owner');
  git(repo, dirs.home, 'config', 'user.email', 'repo@example.test');
});
afterAll(async () => {
  await sandbox?.shutdown();
  dirs?.cleanup();
  if (varTmp) rmSync(varTmp, { recursive: true, force: true });
});

const context = () => ({ trust: 'operator' as const, origin: 'chat' as const, conversationId: 'c', signal: new AbortController().signal, services: { sandbox } });
function requireJail(): void {
  expect(jail.status.active, `The OS jail cannot run on this machine: ${jail.status.reason} Fix: ${jail.status.fix}`).toBe(true);
}

describe('tools in the OS jail', () => {
  it('shell reports that it ran jailed, and a computed path outside the roots stays unwritable', async () => {
    requireJail();
    const result = await run(shell.executor, { command: 'echo ok' }, context());
    expect(result.data).toMatchObject({ jailed: true });
    const target = path.join(varTmp, 'x');
    const error = await failureOf(run(shell.executor, { command: `t=$(printf '%s' '${target}'); echo x > "$t"` }, context()));
    expect(error.message).toMatch(/Read-only file system/);
    expect(existsSync(target)).toBe(false);
  });

  it('git_read and git_write work on a repository in the workspace (a root, bound read-write)', async () => {
    requireJail();
    writeFileSync(path.join(repo, 'jailed.txt'), 'x\n');
    await run(gitWrite.executor, { command: 'add', repo: 'demo', args: ['jailed.txt'] }, context());
    await run(gitWrite.executor, { command: 'commit', repo: 'demo', args: ['-m', 'from the jail'] }, context());
    expect(git(repo, dirs.home, 'log', '-1', '--format=%an: %s')).toBe('Repo Owner: from the jail\n');
    expect((await run(gitRead.executor, { command: 'log', repo: 'demo', args: ['-1', '--format=%s'] }, context())).text).toBe('from the jail');
  });
});
