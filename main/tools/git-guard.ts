/**
 * Argument and repository-config checks for git_read / git_write. git is a program-runner in
 * disguise: options write files (`--output`), point it elsewhere (`--git-dir`, `--work-tree`,
 * `--no-index`) or run programs (`--upload-pack`); repository config can name programs git runs on
 * its own (filter drivers, textconv, fsmonitor, hooks). A model can write `.git/config` with
 * file_write, so without these checks a read_only git_read would be an unapproved `exec`.
 */
import { FermixError } from '../core/errors.js';

/**
 * Passed before every subcommand: `-c` beats any config file. No pager, no editor, no hooks, no
 * fsmonitor daemon, no `ext::`/`fd::` transports (they run arbitrary commands).
 */
export const GIT_SAFE_PREFIX = [
  '--no-pager',
  '-c', 'core.fsmonitor=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.pager=cat',
  '-c', 'core.editor=false',
  '-c', 'sequence.editor=false',
  '-c', 'protocol.ext.allow=never',
  '-c', 'protocol.fd.allow=never',
  '-c', 'color.ui=false',
];

/** GIT_* variables that would redirect git away from the checked repository (`[sandbox.env] mode = "all"`). */
export const GIT_UNSET_ENV = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_CONFIG', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_EXEC_PATH',
  'GIT_EXTERNAL_DIFF', 'GIT_PAGER', 'GIT_EDITOR', 'GIT_CEILING_DIRECTORIES',
];

/** Reference §4 list (plus its `--output*` family). git accepts unique prefixes of long options, so prefixes count too. */
const REFUSED_LONG = ['no-index', 'git-dir', 'work-tree', 'exec-path', 'output', 'output-directory', 'upload-pack', 'receive-pack', 'man-path', 'info-path', 'exec'];

export function refusedArg(tool: string, arg: string, why: string): FermixError {
  return new FermixError({
    code: 'git_failed',
    message: `${tool} refused the argument ${JSON.stringify(arg)}: ${why}.`,
    hint: 'Pass paths relative to the repository and no options that point git elsewhere; use the shell tool for anything else.',
    data: { argument: arg, refused: true },
  });
}

/**
 * Refuses dangerous options, absolute paths (also as `--opt=/x` or `-O/x`) and `..` path segments.
 * `freeText` names options whose value is prose, not a path (commit's `-m`), checked for NUL only.
 */
export function checkGitArgs(tool: string, args: readonly string[], freeText: readonly string[] = []): void {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg.includes('\0')) throw refusedArg(tool, arg, 'it contains a NUL byte');
    if (freeText.includes(arg)) {
      i += 1;
      if (args[i]?.includes('\0')) throw refusedArg(tool, args[i], 'it contains a NUL byte');
      continue;
    }
    if (freeText.some((opt) => (opt.startsWith('--') ? arg.startsWith(`${opt}=`) : opt.length === 2 && arg.startsWith(opt) && arg.length > 2))) continue;
    if (arg.startsWith('--') && arg.length > 2) {
      const name = arg.slice(2).split('=')[0].toLowerCase();
      if (name.startsWith('output') || REFUSED_LONG.some((opt) => opt.startsWith(name))) {
        throw refusedArg(tool, arg, 'this option writes files or points git outside the repository');
      }
    }
    const values = [arg];
    if (arg.includes('=')) values.push(arg.slice(arg.indexOf('=') + 1));
    if (/^-[A-Za-z]./.test(arg)) values.push(arg.slice(2));
    if (values.some((v) => v.startsWith('/') || v.startsWith('~') || /^[A-Za-z]:[\\/]/.test(v) || v.startsWith('\\\\'))) {
      throw refusedArg(tool, arg, 'absolute paths are not allowed; use a path relative to the repository');
    }
    if (arg.split(/[/\\:=]/).includes('..')) throw refusedArg(tool, arg, '`..` may not climb out of the repository');
    if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(arg)) throw refusedArg(tool, arg, 'transport helpers (`ext::`, `fd::`, …) can run commands');
  }
}

/** `git branch` options that only list; anything else (-d, -m, -f, a new name) would change refs. */
const BRANCH_LIST_FLAGS = /^(-a|--all|-r|--remotes|-v|-vv|--verbose|-l|--list|--show-current|--no-color|--color(=.*)?|--column(=.*)?|--no-column|-i|--ignore-case|--abbrev(=\d+)?|--no-abbrev|--omit-empty|--sort=.+|--format=.+|--contains(=.+)?|--no-contains(=.+)?|--merged(=.+)?|--no-merged(=.+)?|--points-at(=.+)?)$/;
const BRANCH_VALUE_FLAGS = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format']);

/** git_read's `branch` must not create, delete, rename or re-point a branch. */
export function checkBranchListing(args: readonly string[]): void {
  const listing = args.includes('-l') || args.includes('--list');
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--') continue;
    if (arg.startsWith('-')) {
      if (!BRANCH_LIST_FLAGS.test(arg) && !BRANCH_VALUE_FLAGS.has(arg)) throw refusedArg('git_read', arg, 'git_read branch only lists branches');
      if (BRANCH_VALUE_FLAGS.has(arg)) i += 1; // its value (a commit) is not a new branch name
      continue;
    }
    if (!listing) throw refusedArg('git_read', arg, 'a bare name would create a branch; pass --list to filter by pattern, or use git_write checkout -b');
  }
}

/** Repository-local config keys that make git run a program. Global and system config are the owner's own. */
const RUNS_PROGRAM: readonly RegExp[] = [
  /^filter\..+\.(clean|smudge|process)$/,
  /^diff\..+\.(textconv|command)$/,
  /^diff\.external$/,
  /^merge\..+\.driver$/,
  /^include\.path$/,
  /^includeif\..+\.path$/,
  /^remote\..+\.(uploadpack|receivepack|vcs|proxy)$/,
  /^core\.(gitproxy|sshcommand|askpass|alternaterefscommand)$/,
  /^credential\..*helper$/,
  /^gpg\.(.+\.)?program$/,
  /^http\..*(proxy|cookiefile|sslkey|sslcert|sslcainfo)$/,
];

export interface ConfigEntry {
  scope: string;
  key: string;
}

/** Parses `git config --list --show-scope -z` (records `scope\0key\nvalue\0`). */
export function parseConfigList(output: string): ConfigEntry[] {
  const parts = output.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const key = parts[i + 1].split('\n')[0];
    if (key !== '') entries.push({ scope: parts[i].trim(), key: key.toLowerCase() });
  }
  return entries;
}

/** The first repository-local key that would run a program, if any. */
export function dangerousLocalConfig(entries: readonly ConfigEntry[]): string | undefined {
  return entries.find((e) => (e.scope === 'local' || e.scope === 'worktree') && RUNS_PROGRAM.some((re) => re.test(e.key)))?.key;
}
