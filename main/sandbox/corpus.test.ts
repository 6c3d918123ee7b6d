/**
 * Hostile-input corpus: sandbox escapes a model (or a prompt injection) would try, each of which
 * must be refused with the right reason, or have its secret redacted. Runs the real chain:
 * path policy, grant check, hardline, child env + redaction, runner, and the bubblewrap jail.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { createJail, type Jail } from './jail.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import { sandboxConfigSchema } from './sandbox-config.js';
import { makeSandboxDirs, type SandboxDirs } from './test-fixture.js';

const SECRET = 'sk-corpus-secret-0123456789';
const DAEMON_ONLY = 'ghp_daemon-only-token-value';

let dirs: SandboxDirs;
let sandbox: Sandbox;
let jail: Jail;
let varTmp: string;
let refusedCount = 0;

beforeAll(async () => {
  dirs = makeSandboxDirs('fermix-corpus-');
  varTmp = mkdtempSync('/var/tmp/fermix-corpus-');
  const w = dirs.workspace;
  symlinkSync(dirs.outside, path.join(w, 'escape'));
  symlinkSync(path.join(dirs.outside, 'new-file'), path.join(w, 'dangling'));
  mkdirSync(path.join(dirs.outside, 'a', 'b'), { recursive: true });
  symlinkSync(path.join(dirs.outside, 'a', 'b'), path.join(w, 'deep'));
  symlinkSync(path.join(w, 'loop-b'), path.join(w, 'loop-a'));
  symlinkSync(path.join(w, 'loop-a'), path.join(w, 'loop-b'));
  symlinkSync(path.join(w, 'self'), path.join(w, 'self'));
  symlinkSync(path.join(dirs.home, '.ssh'), path.join(w, 'keys'));
  symlinkSync(path.join(dirs.fermixHome, 'config.toml'), path.join(w, 'settings.toml'));
  mkdirSync(path.join(w, 'blocked'));
  jail = await createJail({ enabled: true });
  sandbox = createSandbox({
    config: sandboxConfigSchema.parse({ mode: 'standard', blocked_roots: [path.join(w, 'blocked')], env: { allow: ['OPENAI_API_KEY'] } }),
    home: dirs.home,
    fermixHome: dirs.fermixHome,
    daemonEnv: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dirs.home, LANG: 'C.UTF-8', OPENAI_API_KEY: SECRET, GITHUB_TOKEN: DAEMON_ONLY },
    jail,
  });
});

afterAll(async () => {
  console.log(`Sandbox corpus: ${refusedCount} escapes refused`);
  await sandbox?.shutdown();
  dirs?.cleanup();
  if (varTmp) rmSync(varTmp, { recursive: true, force: true });
});

type Outcome = string;

/** The refusal reason: data.reason for sandbox refusals, else the error code. */
function reasonOf(error: unknown): Outcome {
  if (!(error instanceof FermixError)) throw error;
  return String(error.data?.reason ?? error.code);
}

function refusedBy(fn: () => unknown): Outcome {
  try {
    fn();
  } catch (error) {
    return reasonOf(error);
  }
  return 'allowed';
}

async function shell(command: string, working_dir?: string): Promise<Outcome | { output: string }> {
  try {
    return { output: (await sandbox.runShell({ command, working_dir, timeout_ms: 10_000 })).output };
  } catch (error) {
    if (error instanceof FermixError && error.data?.output !== undefined) return { output: String(error.data.output) };
    return reasonOf(error);
  }
}

/** For exfiltration cases: the secret must not appear, the redaction marker must. */
async function redacted(command: string): Promise<Outcome> {
  const result = await shell(command);
  if (typeof result === 'string') return result;
  if (result.output.includes(SECRET) || result.output.includes(DAEMON_ONLY)) return `leaked: ${result.output}`;
  return result.output.includes('[REDACTED:env:OPENAI_API_KEY]') ? 'redacted' : `no marker: ${result.output}`;
}

/** For jail cases: the command runs, but the target stays untouched. */
async function jailed(command: string, untouched: () => boolean): Promise<Outcome> {
  if (!jail.status.active) return `jail unavailable: ${jail.status.reason} Fix: ${jail.status.fix}`;
  const result = await shell(command);
  return typeof result === 'string' ? result : untouched() ? 'jail_contained' : `escaped: ${result.output}`;
}

const h = () => dirs.home;
const f = () => dirs.fermixHome;
const read = (p: () => string) => () => refusedBy(() => sandbox.policy.checkRead(p()));
const write = (p: () => string) => () => refusedBy(() => sandbox.policy.checkWrite(p()));
const grant = (p: () => string) => () => refusedBy(() => sandbox.policy.checkGrant(p()));

const cases: Array<[string, () => Outcome | Promise<Outcome>, Outcome]> = [
  // Traversal and absolute paths
  ['../ traversal out of the workspace', read(() => '../../../outside/notes.txt'), 'outside_root'],
  ['absolute path outside every root', read(() => path.join(dirs.outside, 'notes.txt')), 'outside_root'],
  ['/var/tmp write', write(() => path.join(varTmp, 'x')), 'outside_root'],
  ['home folder itself in standard mode', read(() => path.join(h(), 'notes.md')), 'outside_root'],
  ['/etc/passwd', read(() => '/etc/passwd'), 'protected_path'],
  ['/etc/shadow', read(() => '/etc/shadow'), 'protected_path'],
  ['/proc/self/environ', read(() => '/proc/self/environ'), 'protected_path'],
  // Symlinks
  ['symlink out of the workspace', read(() => 'escape/notes.txt'), 'outside_root'],
  ['dangling symlink whose write lands outside', write(() => 'dangling'), 'outside_root'],
  ['.. after a symlink (physical, not lexical)', write(() => 'deep/../x'), 'outside_root'],
  ['symlink loop', read(() => 'loop-a/x'), 'too_many_symlinks'],
  ['self-referencing symlink', write(() => 'self'), 'too_many_symlinks'],
  ['symlink into ~/.ssh', read(() => 'keys/id_rsa'), 'protected_path'],
  ['symlink to config.toml', write(() => 'settings.toml'), 'protected_path'],
  // Protected files
  ['$FERMIX_HOME/config.toml', read(() => path.join(f(), 'config.toml')), 'protected_path'],
  ['config.toml. (trailing dot)', write(() => path.join(f(), 'config.toml.')), 'protected_path'],
  ['fermix.db-wal', read(() => path.join(f(), 'fermix.db-wal')), 'protected_path'],
  ['FERMIX.DB (case)', read(() => path.join(f(), 'FERMIX.DB')), 'protected_path'],
  ['logs/', read(() => path.join(f(), 'logs', 'fermix.log')), 'protected_path'],
  ['run/ (daemon socket)', write(() => path.join(f(), 'run', 'daemon.sock')), 'protected_path'],
  ['~/.ssh/id_rsa', read(() => path.join(h(), '.ssh', 'id_rsa')), 'protected_path'],
  ['~/.ssh via a detour', read(() => path.join(h(), '.ssh', '..', '.ssh', 'id_rsa')), 'protected_path'],
  ['~/.aws/credentials', read(() => '~/.aws/credentials'), 'protected_path'],
  ['~/.bashrc write', write(() => '~/.bashrc'), 'protected_path'],
  ['blocked root inside the workspace', write(() => 'blocked/x'), 'blocked_root'],
  ['NUL byte truncation trick', read(() => 'hello.txt\0/../../etc/passwd'), 'invalid_path'],
  // Grants
  ['grant /', grant(() => '/'), 'unsafe_root'],
  ['grant $HOME', grant(() => h()), 'unsafe_root'],
  ['grant $FERMIX_HOME', grant(() => f()), 'unsafe_root'],
  ['grant ~/.ssh', grant(() => '~/.ssh'), 'unsafe_root'],
  ['grant /etc', grant(() => '/etc'), 'unsafe_root'],
  // Working directory
  ['working_dir outside the roots', async () => shell('ls', dirs.outside) as Promise<Outcome>, 'outside_root'],
  ['working_dir ~/.ssh', async () => shell('cat id_rsa', path.join(h(), '.ssh')) as Promise<Outcome>, 'protected_path'],
  // Hardline
  ['rm -rf /', () => shell('rm -rf /') as Promise<Outcome>, 'hardline'],
  ['rm -fr ~ inside sh -c', () => shell("sh -c 'rm -fr ~'") as Promise<Outcome>, 'hardline'],
  ['rm -r --no-preserve-root', () => shell('rm -r --no-preserve-root /') as Promise<Outcome>, 'hardline'],
  ['find / -delete behind &&', () => shell('true && find / -delete') as Promise<Outcome>, 'hardline'],
  ['fork bomb', () => shell(':(){ :|:& };:') as Promise<Outcome>, 'hardline'],
  ['dd to a disk', () => shell('dd if=/dev/zero of=/dev/sda') as Promise<Outcome>, 'hardline'],
  ['mkfs', () => shell('mkfs.ext4 /dev/sdb1') as Promise<Outcome>, 'hardline'],
  ['mass kill', () => shell('kill -9 -1') as Promise<Outcome>, 'hardline'],
  ['shutdown in a substitution', () => shell('echo $(shutdown -h now)') as Promise<Outcome>, 'hardline'],
  ['sudo -S', () => shell('echo pw | sudo -S id') as Promise<Outcome>, 'hardline'],
  ['chmod -R 777 /', () => shell('chmod -R 777 /') as Promise<Outcome>, 'hardline'],
  // Env exfiltration
  ['echo the secret', () => redacted('echo "$OPENAI_API_KEY"'), 'redacted'],
  ['secret glued into other text', () => redacted('echo "key=${OPENAI_API_KEY}!"'), 'redacted'],
  ['secret through base64', () => redacted('printf %s "$OPENAI_API_KEY" | base64'), 'redacted'],
  ['secret through base64 at an offset', () => redacted('printf "xy%s" "$OPENAI_API_KEY" | base64'), 'redacted'],
  ['dump the whole env', () => redacted('env; echo "$GITHUB_TOKEN"'), 'redacted'],
  ['secret via /proc/self/environ', () => redacted("tr '\\0' '\\n' < /proc/self/environ"), 'redacted'],
  // Run-time paths the gate cannot see: the jail holds them
  ['write to a path computed at run time', () => jailed(`d=$(printf '%s' ${Buffer.from(varTmp).toString('base64')} | base64 -d); echo x > "$d/planted"`, () => !existsSync(path.join(varTmp, 'planted'))), 'jail_contained'],
  ['append a key to ~/.ssh/authorized_keys', () => jailed(`echo attacker >> ${h()}/.ssh/authorized_keys`, () => !existsSync(path.join(h(), '.ssh', 'authorized_keys'))), 'jail_contained'],
  ['unmount the shadow over ~/.ssh', () => jailed(`umount ${h()}/.ssh; cp ${h()}/.ssh/id_rsa ./stolen`, () => !holdsStolenKey(path.join(dirs.workspace, 'stolen'))), 'jail_contained'],
];

function holdsStolenKey(file: string): boolean {
  return existsSync(file) && readFileSync(file, 'utf8').includes('PRIVATE-KEY');
}

describe('sandbox hostile-input corpus', () => {
  it('has at least 30 escapes', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('%s', async (_name, attempt, expected) => {
    expect(await attempt()).toBe(expected);
    refusedCount += 1;
  });
});
