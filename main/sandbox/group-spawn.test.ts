import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { hasControllingTerminal, spawnInOwnGroup } from './group-spawn.js';
import { groupAlive, signalGroup } from './process-group.js';

// /proc/<pid>/stat: "pid (comm) state ppid pgrp session …"; comm may hold spaces, so split after ')'.
function groupAndSession(pid: number): { pgrp: number; session: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { pgrp: Number(fields[2]), session: Number(fields[3]) };
}

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
// The suite may itself run in a terminal; these tests are about the daemon without one unless they say so.
const noTerminal = { controllingTerminal: false };
const children: ChildProcess[] = [];
function track<T extends { child: ChildProcess }>(spawned: T): T {
  children.push(spawned.child);
  return spawned;
}
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
  });
}
function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('close', () => resolve())));
}

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.pid !== undefined && !signalGroup(child.pid, 'SIGKILL')) child.kill('SIGKILL');
  }
});

describe.runIf(process.platform === 'linux' && existsSync('/usr/bin/perl'))('spawnInOwnGroup', () => {
  it('makes the child the leader of its own group, inside the daemon\'s session, with its argv as written', async () => {
    const { child, group } = track(spawnInOwnGroup('sh', ['-c', 'tr "\\0" " " < /proc/$$/cmdline; echo; exec sleep 30'], { env, ...noTerminal }));
    expect(group).toBe('setpgrp');
    const cmdline = await firstLine(child);
    expect(cmdline.trim()).toBe('sh -c tr "\\0" " " < /proc/$$/cmdline; echo; exec sleep 30');
    const own = groupAndSession(process.pid);
    const its = groupAndSession(child.pid!);
    expect(its.pgrp).toBe(child.pid);
    expect(its.pgrp).not.toBe(own.pgrp);
    expect(its.session).toBe(own.session);
  });

  it('a signal to the group reaches what the child started', async () => {
    const { child } = track(spawnInOwnGroup('sh', ['-c', 'sleep 30 & echo $!; wait'], { env, ...noTerminal }));
    const grandchild = Number(await firstLine(child));
    expect(groupAndSession(grandchild).pgrp).toBe(child.pid);
    expect(signalGroup(child.pid!, 'SIGKILL')).toBe(true);
    await exited(child);
    await expect.poll(() => groupAlive(child.pid!), { timeout: 5_000 }).toBe(false);
    expect(existsSync(`/proc/${grandchild}/stat`) && !readFileSync(`/proc/${grandchild}/stat`, 'utf8').includes(') Z ')).toBe(false);
  });

  it('a command that is not there fails as spawn fails: an ENOENT error event', async () => {
    const { child, group } = track(spawnInOwnGroup('fermix-no-such-command', [], { env, ...noTerminal }));
    expect(group).toBe('setsid');
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve));
    expect(error.code).toBe('ENOENT');
  });

  it('a working directory that is not there fails as spawn fails', async () => {
    const { child } = track(spawnInOwnGroup('sh', ['-c', 'true'], { env, ...noTerminal, cwd: '/nonexistent/fermix-dir' }));
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve));
    expect(error.code).toBe('ENOENT');
  });

  it('finds a relative command against the child\'s working directory, as spawn does', async () => {
    const { child, group } = track(spawnInOwnGroup('./sh', ['-c', 'pwd -P'], { env, ...noTerminal, cwd: '/bin' }));
    expect(group).toBe('setpgrp');
    expect(await firstLine(child)).toBe(realpathSync('/bin'));
  });

  it('hands the server exactly its environment, with no locale warning from the wrapper', async () => {
    const { child } = track(spawnInOwnGroup('sh', ['-c', 'env | sort; echo END'], { ...noTerminal, env: { ...env, LANG: 'xx_YY.UTF-8', LC_ALL: 'xx_YY.UTF-8', FERMIX_PROBE: 'a b' } }));
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    await exited(child);
    const names = out.split('\n').filter((line) => line.includes('=')).map((line) => line.split('=')[0]);
    // sh adds PWD (and may add SHLVL or _) itself; nothing else may appear, PERL_BADLANG above all.
    expect(names.filter((name) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(name)).sort()).toEqual(['FERMIX_PROBE', 'LANG', 'LC_ALL', 'PATH']);
    expect(out).toContain('FERMIX_PROBE=a b');
    expect(err).toBe('');
  });

  it('an environment with perl settings skips the wrapper (they would load into it) and still reaches the server', async () => {
    const { child, group } = track(spawnInOwnGroup('sh', ['-c', 'echo "$PERL5OPT"; exec sleep 30'], { ...noTerminal, env: { ...env, PERL5OPT: '-Mstrict' } }));
    expect(group).toBe('setsid');
    expect(await firstLine(child)).toBe('-Mstrict');
    const its = groupAndSession(child.pid!);
    expect(its.pgrp).toBe(child.pid);
    expect(its.session).toBe(child.pid);
  });

  it('a daemon with a controlling terminal gives the server a session of its own, without one', async () => {
    const { child, group } = track(spawnInOwnGroup('sh', ['-c', 'exec sleep 30'], { env, controllingTerminal: true }));
    expect(group).toBe('setsid');
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(groupAndSession(child.pid!).session).toBe(child.pid);
  });

  it('tells whether this process has a controlling terminal, inside a pseudo-terminal and outside one', () => {
    const probe = `import('${new URL('./group-spawn.ts', import.meta.url).pathname}').then((m) => console.log('terminal=' + m.hasControllingTerminal()))`;
    const tsx = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
    // script(1) runs the probe on a new pseudo-terminal, which becomes its controlling terminal.
    const inside = spawnSync('script', ['-qec', `${tsx} -e "${probe}"`, '/dev/null'], { encoding: 'utf8', timeout: 60_000 });
    expect(inside.stdout).toContain('terminal=true');
    const outside = spawnSync('setsid', [tsx, '-e', probe], { encoding: 'utf8', timeout: 60_000 });
    expect(outside.stdout).toContain('terminal=false');
    expect(typeof hasControllingTerminal()).toBe('boolean');
  }, 90_000);
});
