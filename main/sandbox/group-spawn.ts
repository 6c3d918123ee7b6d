/**
 * Spawns a long-running child (a local MCP server) as the leader of its own process group, so that a
 * negative pid signals it and everything it started (process-group.ts), but inside the daemon's session.
 *
 * Why not `detached`: Node can only give a child a group by giving it a new session (libuv has setsid,
 * no setpgid), and on Linux with autogroup scheduling (the default on desktop distributions) every
 * session is its own scheduling group. Each request/response between the daemon and a server in another
 * group then paid for it: a local MCP call through the registry measured 1.34× the raw SDK's with the
 * server in its own session, 1.19× with it in ours (bench/suites/mcp.ts, decision 0020).
 *
 * So the group comes from perl: `setpgrp` (setpgid(0, 0)), then `exec` of the command in place (same pid,
 * same pipes, same environment). perl-base is an essential package on Debian and Ubuntu and ships with
 * macOS. Without it, on Windows, or when the server's environment carries PERL5OPT/PERL5LIB (which would
 * load into the wrapper too), the child is spawned `detached` as before. A command that cannot be found is
 * also spawned directly, so the caller sees spawn's own ENOENT error.
 *
 * Also `detached` while the daemon has a controlling terminal (`fermix daemon` run in one): in our session
 * a server would share it, and a tool that asks on /dev/tty (git's credential prompt) would be stopped by
 * SIGTTIN and hang until the call's timeout instead of failing at once; nor could it inject input into
 * that terminal. `fermix restart` (which starts it in the background), the desktop app and services run
 * the daemon without one.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { findExecutable } from './executables.js';

const PERL = '/usr/bin/perl';
// `exec {FILE} LIST` runs FILE without a shell and without searching PATH again. Exit 127 (as a shell
// would) only if exec fails after the lookup succeeded (a file that stopped being executable).
// The first argument says whether PERL_BADLANG was added only for the wrapper (it keeps perl from
// printing a locale warning into the server's log when LANG names a locale that is not installed).
const WRAPPER = 'setpgrp(0, 0) or die "setpgrp: $!\\n"; delete $ENV{PERL_BADLANG} if shift @ARGV; my $file = shift @ARGV; exec { $file } @ARGV; print STDERR "cannot run $file: $!\\n"; exit 127;';
const PERL_SETTINGS = /^(PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|PERL_UNICODE)$/;

let perlPresent: boolean | undefined;
let terminal: boolean | undefined;

/**
 * Whether this process has a controlling terminal: tty_nr in /proc/self/stat on Linux (0 means none);
 * elsewhere, whether any of its standard streams is a terminal (the usual way one is inherited).
 */
export function hasControllingTerminal(): boolean {
  if (terminal === undefined) {
    try {
      terminal = Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[4]) !== 0;
    } catch {
      terminal = [process.stdin, process.stdout, process.stderr].some((stream) => stream?.isTTY === true);
    }
  }
  return terminal;
}

export interface GroupSpawnOptions {
  env: Record<string, string>;
  cwd?: string;
  /** For tests: whether the daemon has a controlling terminal (default: hasControllingTerminal()). */
  controllingTerminal?: boolean;
}

export interface GroupSpawned {
  child: ChildProcess;
  /** How the group was made: `setpgrp` in the daemon's session, or `setsid` (a session of its own). */
  group: 'setpgrp' | 'setsid';
}

/** The command's absolute path as spawn would find it (PATH of the child's environment, relative paths against its cwd). */
function locate(command: string, options: GroupSpawnOptions): string | undefined {
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(options.cwd ?? process.cwd(), command);
    return findExecutable(file, '');
  }
  // execvp's default search path when the environment has none.
  return findExecutable(command, options.env.PATH ?? '/usr/bin:/bin');
}

export function spawnInOwnGroup(command: string, args: readonly string[], options: GroupSpawnOptions): GroupSpawned {
  const base: SpawnOptions = { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], shell: false, windowsHide: true };
  perlPresent ??= process.platform !== 'win32' && existsSync(PERL);
  const inOurSession = perlPresent && !(options.controllingTerminal ?? hasControllingTerminal()) && !Object.keys(options.env).some((name) => PERL_SETTINGS.test(name));
  const file = inOurSession ? locate(command, options) : undefined;
  // A missing cwd must fail as spawn fails (ENOENT on the spawn), not as a wrapper that cannot chdir.
  if (file === undefined || (options.cwd !== undefined && !existsSync(options.cwd))) {
    return { child: spawn(command, [...args], { ...base, detached: true }), group: 'setsid' };
  }
  // After the file comes the whole argv, argv[0] the command as written (what `ps` and the server itself see).
  const quiet = options.env.PERL_BADLANG === undefined;
  const env = quiet ? { ...options.env, PERL_BADLANG: '0' } : options.env;
  return { child: spawn(PERL, ['-e', WRAPPER, '--', quiet ? '1' : '', file, command, ...args], { ...base, env, detached: false }), group: 'setpgrp' };
}
