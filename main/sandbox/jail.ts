/**
 * The OS jail — beyond Fermix, which documents that shell commands are checked only for their
 * working directory and hardline patterns. On Linux with bubblewrap we run each command with the
 * whole filesystem read-only, a private /tmp and /proc, the sandbox roots bound read-write, and
 * protected paths shadowed, so a path computed at run time cannot write outside the roots.
 *
 * Choices (measured on Debian 12, bwrap 0.8, as root):
 * - `--cap-drop ALL` when we are root: without it a root command simply `umount`s the tmpfs over
 *   ~/.ssh or remounts / read-write. (A user namespace alone does not help: mounts made inside it
 *   can be unmounted inside it.)
 * - `--unshare-pid` + `--die-with-parent`: killing bwrap's process group tears down the whole pid
 *   namespace, which also catches children that `setsid` out of our group.
 * - no `--new-session`: Node's `detached` already gave the command a session without a terminal
 *   (nothing to TIOCSTI into), and staying in bwrap's group keeps `kill(-pgid)` reaching everything.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { findExecutable } from './executables.js';
import { FermixError } from '../core/errors.js';
import type { CommandWrapper } from './runner.js';
import { createPidsContainment, detectLimitSupport, jailLimitsSchema, prlimitArgv, type JailLimits, type LimitSupport } from './jail-limits.js';
import { ONE_SHOT_PARSE } from '../core/one-shot-parse.js';

export interface JailStatus {
  active: boolean;
  /** Why it is (in)active, one sentence. */
  reason: string;
  /** What to do about it; empty when active. */
  fix: string;
  bwrap?: string;
  /** A private pid namespace works (else /proc is the host's, read-only). */
  pidNamespace: boolean;
  /** How `[sandbox.jail.limits]` is enforced here; absent when the jail is inactive. */
  limits?: LimitSupport & { configured: JailLimits };
}

export interface JailPlan {
  /** Bound read-write: the sandbox roots in effect. */
  writableRoots: string[];
  /** Shadowed: protected paths and blocked roots that exist (tmpfs over folders, /dev/null over files). */
  hidden: string[];
  /** Re-bound read-only over a writable root (persistence paths such as ~/.config/autostart). */
  readOnly: string[];
}

export interface JailOptions {
  enabled?: boolean;
  /** Refuse to run commands without the jail (`[sandbox.jail] required`). */
  required?: boolean;
  platform?: NodeJS.Platform;
  /** Where to look for bwrap; defaults to the daemon's PATH. */
  searchPath?: string;
  /** `[sandbox.jail.limits]`; the schema's defaults when absent. */
  limits?: JailLimits;
}

export interface Jail {
  readonly status: JailStatus;
  /** A wrapper for the runner, or undefined when the jail is off (throws when it is required). */
  forPlan(plan: JailPlan): CommandWrapper | undefined;
}

const PROBE_TIMEOUT_MS = 5_000;

export async function jailStatus(options: JailOptions = {}): Promise<JailStatus> {
  const platform = options.platform ?? process.platform;
  if (options.enabled === false) {
    return { active: false, reason: 'The OS jail is disabled in config.', fix: 'Set `[sandbox.jail] enabled = true` in config.toml.', pidNamespace: false };
  }
  if (platform !== 'linux') {
    return { active: false, reason: `The OS jail uses bubblewrap, which exists only on Linux (this is ${platform}).`, fix: 'None on this OS: the path gate and hardline checks still apply.', pidNamespace: false };
  }
  const bwrap = findExecutable('bwrap', options.searchPath ?? process.env.PATH ?? '');
  if (bwrap === undefined) {
    return { active: false, reason: 'bwrap (bubblewrap) is not installed or not on the daemon PATH.', fix: `${bubblewrapInstallCommand()}, then restart the daemon (\`fermix restart\`).`, pidNamespace: false };
  }
  // The pid-namespace sandbox is the basic one plus a private /proc: where it works, the basic one does too,
  // so only where it fails is the basic one tried. Each probe is a fork of the daemon, which start-up waits
  // for on its main thread (~5 ms each).
  const pid = await probe(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid', '--proc', '/proc', 'true']);
  const basic = pid.ok ? pid : await probe(bwrap, ['--ro-bind', '/', '/', 'true']);
  if (!basic.ok) {
    return {
      active: false,
      bwrap,
      reason: `bwrap cannot create a sandbox here: ${basic.error}`,
      fix: 'Allow unprivileged user namespaces: `sysctl kernel.unprivileged_userns_clone=1` (Debian) or `sysctl kernel.apparmor_restrict_unprivileged_userns=0` (Ubuntu 24.04+); in a container, run it with user namespaces enabled.',
      pidNamespace: false,
    };
  }
  const configured = options.limits ?? jailLimitsSchema.parse({}, ONE_SHOT_PARSE);
  return {
    active: true,
    bwrap,
    limits: { ...detectLimitSupport(configured, { searchPath: options.searchPath }), configured },
    reason: pid.ok ? 'Commands run inside bubblewrap with a private pid namespace.' : `Commands run inside bubblewrap, without a private pid namespace (${pid.error}).`,
    fix: '',
    pidNamespace: pid.ok,
  };
}

export async function createJail(options: JailOptions = {}): Promise<Jail> {
  const status = await jailStatus(options);
  return {
    status,
    forPlan(plan) {
      if (!status.active) {
        if (options.required) {
          throw new FermixError({
            code: 'sandbox_denied',
            message: `The OS jail is required but unavailable: ${status.reason}`,
            hint: status.fix,
            data: { reason: 'jail_unavailable' },
          });
        }
        return undefined;
      }
      const limits = status.limits;
      return {
        wrap: (argv, cwd) => bwrapArgv(status, plan, cwd, argv),
        contain: () => (limits === undefined ? undefined : createPidsContainment(limits, limits.configured.max_processes)),
      };
    },
  };
}

/** The full bwrap argv. Order matters: later mounts shadow earlier ones. */
export function bwrapArgv(status: JailStatus, plan: JailPlan, cwd: string, argv: string[]): string[] {
  const args = [status.bwrap ?? 'bwrap', '--ro-bind', '/', '/', '--dev', '/dev'];
  if (status.pidNamespace) args.push('--unshare-pid', '--proc', '/proc');
  else args.push('--ro-bind', '/proc', '/proc');
  args.push('--tmpfs', '/tmp', '--unshare-ipc', '--die-with-parent');
  if (process.getuid?.() === 0) args.push('--cap-drop', 'ALL');
  for (const root of existing(plan.writableRoots)) args.push('--bind', root, root);
  for (const p of existing(plan.readOnly)) args.push('--ro-bind', p, p);
  for (const p of plan.hidden) {
    const kind = kindOf(p);
    if (kind === 'dir') args.push('--tmpfs', p, '--remount-ro', p);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', p);
  }
  const limits = status.limits === undefined ? [] : prlimitArgv(status.limits.configured, status.limits);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', cwd, '--', ...limits, ...argv);
  return args;
}

/** The install command for this distribution, from /etc/os-release's ID and ID_LIKE. */
export function bubblewrapInstallCommand(osRelease = readOsRelease()): string {
  const ids = `${osRelease.ID ?? ''} ${osRelease.ID_LIKE ?? ''}`.toLowerCase().split(/\s+/);
  const has = (...names: string[]) => names.some((n) => ids.includes(n));
  if (has('debian', 'ubuntu')) return 'sudo apt install bubblewrap';
  if (has('fedora', 'rhel', 'centos')) return 'sudo dnf install bubblewrap';
  if (has('arch')) return 'sudo pacman -S bubblewrap';
  if (has('suse', 'opensuse')) return 'sudo zypper install bubblewrap';
  if (has('alpine')) return 'sudo apk add bubblewrap';
  if (has('gentoo')) return 'sudo emerge sys-apps/bubblewrap';
  if (has('nixos')) return 'add bubblewrap to environment.systemPackages';
  return "install your distribution's bubblewrap package";
}

function readOsRelease(): Record<string, string> {
  try {
    const out: Record<string, string> = {};
    for (const line of readFileSync('/etc/os-release', 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=("?)(.*)\2$/.exec(line.trim());
      if (match) out[match[1]] = match[3];
    }
    return out;
  } catch {
    return {};
  }
}

function existing(paths: string[]): string[] {
  return [...new Set(paths)].filter((p) => kindOf(p) !== undefined);
}

function kindOf(p: string): 'dir' | 'file' | undefined {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}


function probe(bwrap: string, args: string[]): Promise<{ ok: true } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    // spawn with only stderr piped, not execFile (three pipes and their streams): the probe runs on the
    // daemon's start path, where each pipe's setup showed in the profile (~1 ms of the ~3.5 ms spawn).
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(bwrap, args, { env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      resolve({ ok: false, error: (error as Error).message });
      return;
    }
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    const settle = (result: { ok: true } | { ok: false; error: string }) => {
      clearTimeout(timer);
      resolve(result);
    };
    child.once('error', (error) => settle({ ok: false, error: error.message.split('\n')[0] }));
    child.once('close', (code, signal) => {
      if (code === 0) return settle({ ok: true });
      const why = signal === 'SIGKILL' ? `no answer within ${PROBE_TIMEOUT_MS} ms` : `exit ${code ?? signal}`;
      settle({ ok: false, error: (stderr.trim() || `bwrap failed (${why})`).split('\n')[0] });
    });
  });
}
