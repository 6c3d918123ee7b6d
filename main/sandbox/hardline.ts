/**
 * "Hardline" (reference §2.3): catastrophic shell commands refused before anything runs. A pattern
 * check on the parsed command line — quotes, escapes, chaining, substitutions, `sh -c`, `eval` and
 * wrappers like sudo/env/xargs are seen through — but it cannot follow variables computed at run
 * time. It is a seat belt; the OS jail (jail.ts) is the boundary.
 */
import path from 'node:path';
import { FermixError } from '../core/errors.js';
import { isOsTopLevel } from './grant-check.js';
import { isWithin } from './real-path.js';
import { lexShell, MAX_NESTING, SUBSTITUTION, type SimpleCommand } from './shell-lexer.js';
import { unwrapCommand } from './command-unwrap.js';

export type HardlineRule =
  | 'recursive_delete' | 'find_delete' | 'mkfs' | 'disk_write' | 'fork_bomb' | 'mass_kill' | 'power'
  | 'sudo_stdin' | 'recursive_permissions' | 'move_root' | 'too_deep';

export interface HardlineContext {
  home: string;
  fermixHome?: string;
  /** Resolves relative targets (`rm -rf .`, `rm -rf *`); without it they are not judged. */
  cwd?: string;
  /** Protected roots (path-policy's matcher): recursive deletes under them are refused too. */
  isProtected?: (absolutePath: string) => boolean;
}

export interface HardlineHit {
  rule: HardlineRule;
  description: string;
  /** The simple command (or raw text) that matched, for the message and the trace. */
  excerpt: string;
}

const DESCRIPTIONS: Record<HardlineRule, string> = {
  recursive_delete: 'recursive delete of the filesystem root, the home folder or a protected root',
  find_delete: 'find -delete/-exec rm over the filesystem root, the home folder or a protected root',
  mkfs: 'formatting a filesystem',
  disk_write: 'writing straight to a disk device',
  fork_bomb: 'fork bomb',
  mass_kill: 'killing every process (mass kill)',
  power: 'shutdown, reboot or halt',
  sudo_stdin: 'sudo reading a password from stdin (sudo -S)',
  recursive_permissions: 'recursive chmod/chown of the filesystem root, the home folder or a protected root',
  move_root: 'moving away the filesystem root, the home folder or a protected root',
  too_deep: `command nesting deeper than ${MAX_NESTING} levels`,
};

const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper\/|loop|sr|nbd)/;
const MKFS = /^(mkfs(\..*)?|mke2fs|mkswap|wipefs|mkdosfs|mkntfs|newfs(_.*)?|mkfs_.*)$/;
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'kexec']);
const SYSTEMCTL_POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot', 'emergency', 'rescue']);
const MATCH_ALL_PATTERNS = new Set(['', '.', '.*', '^', '^.*', '.+', '^.*$', '*']);

export function findHardline(command: string, context: HardlineContext): HardlineHit | undefined {
  return scan(command, context, 0);
}

export function checkHardline(command: string, context: HardlineContext): void {
  const hit = findHardline(command, context);
  if (hit !== undefined) throw hardlineError(hit);
}

export function hardlineError(hit: HardlineHit): FermixError {
  return new FermixError({
    code: 'sandbox_hardline',
    message: `Command refused by the sandbox hardline (${hit.description}): ${hit.excerpt.slice(0, 300)}`,
    hint: 'Fermix never runs this pattern. If you really mean it, run it yourself in a terminal.',
    data: { reason: 'hardline', rule: hit.rule },
  });
}

function scan(src: string, context: HardlineContext, depth: number): HardlineHit | undefined {
  if (depth > MAX_NESTING) return hit('too_deep', src);
  const lexed = lexShell(src);
  for (const text of [src, ...lexed.substitutions]) {
    if (isForkBomb(text)) return hit('fork_bomb', text);
  }
  let current = context;
  for (const cmd of lexed.commands) {
    const found = judge(cmd, current, depth);
    if (found) return found;
    current = { ...current, cwd: afterCd(cmd.words, current) };
  }
  return undefined;
}

/** Follows `cd` so `cd / && rm -rf *` is judged in `/`; an unknown destination stops relative judging. */
function afterCd(words: string[], context: HardlineContext): string | undefined {
  if (words[0] !== 'cd') return context.cwd;
  const target = words.slice(1).find((w) => !/^-[LPe@]+$/.test(w));
  if (target === undefined || target === '~') return context.home;
  if (target === '-' || target.includes('$') || target.includes(SUBSTITUTION)) return undefined;
  const expanded = target.replace(/^~(?=\/)/, context.home);
  if (path.posix.isAbsolute(expanded)) return path.posix.normalize(expanded);
  return context.cwd === undefined ? undefined : path.posix.join(context.cwd, expanded);
}

function judge(raw: SimpleCommand, context: HardlineContext, depth: number): HardlineHit | undefined {
  const excerpt = raw.words.join(' ');
  for (const target of raw.redirects) if (BLOCK_DEVICE.test(target)) return hit('disk_write', excerpt);
  const unwrapped = unwrapCommand(raw.words);
  if (unwrapped.sudoStdin) return hit('sudo_stdin', excerpt);
  for (const script of unwrapped.scripts) {
    const inner = scan(script, context, depth + 1);
    if (inner) return inner;
  }
  const [name, ...args] = unwrapped.words;
  if (name === undefined) return undefined;
  const base = path.posix.basename(name);
  const operands = args.filter((a) => !a.startsWith('-') || a === '-');
  const dangerous = (a: string) => isCatastrophicTarget(a, context);
  const flags = shortFlags(args);

  if (base === 'rm') {
    if (args.includes('--no-preserve-root')) return hit('recursive_delete', excerpt);
    const recursive = flags.has('r') || flags.has('R') || args.includes('--recursive');
    if (recursive && operands.some(dangerous)) return hit('recursive_delete', excerpt);
  }
  if (base === 'find') {
    // `find [-H|-L|-P|-O3|-D x] path… expression`: the paths come before the first -/(/! word.
    const start = args.findIndex((a) => !/^-([HLP]|O\d*)$/.test(a));
    const rest = start === -1 ? [] : args.slice(start);
    const firstExpression = rest.findIndex((a) => /^[-(!]/.test(a));
    const roots = firstExpression === -1 ? rest : rest.slice(0, firstExpression);
    const deletes = args.includes('-delete') || args.some((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a) && /(^|\/)(rm|shred|unlink)$/.test(args[i + 1] ?? ''));
    if (deletes && roots.some(dangerous)) return hit('find_delete', excerpt);
  }
  if (MKFS.test(base)) return hit('mkfs', excerpt);
  if (base === 'dd' && args.some((a) => a.startsWith('of=/dev/') && BLOCK_DEVICE.test(a.slice(3)))) return hit('disk_write', excerpt);
  if (['tee', 'cp', 'mv', 'install', 'shred', 'truncate', 'pv', 'rsync'].includes(base) && operands.some((a) => BLOCK_DEVICE.test(a))) {
    return hit('disk_write', excerpt);
  }
  if (base === 'killall5') return hit('mass_kill', excerpt);
  if (base === 'kill' && killsEverything(args)) return hit('mass_kill', excerpt);
  if (base === 'pkill' || base === 'killall') {
    const byUser = args.some((a) => a === '-u' || a === '-U' || a.startsWith('--user') || a.startsWith('--euid') || a.startsWith('--uid'));
    if (byUser || operands.some((p) => MATCH_ALL_PATTERNS.has(p))) return hit('mass_kill', excerpt);
  }
  if (POWER.has(base)) return hit('power', excerpt);
  if ((base === 'init' || base === 'telinit') && operands.some((a) => a === '0' || a === '6')) return hit('power', excerpt);
  if ((base === 'systemctl' || base === 'loginctl') && operands.some((a) => SYSTEMCTL_POWER.has(a))) return hit('power', excerpt);
  if (['chmod', 'chown', 'chgrp'].includes(base)) {
    const recursive = flags.has('R') || args.includes('--recursive');
    if (recursive && operands.some(dangerous)) return hit('recursive_permissions', excerpt);
  }
  if (base === 'mv' && operands.slice(0, -1).some(dangerous)) return hit('move_root', excerpt);
  return undefined;
}

/** Single-letter flags from `-rf`, `-R`, … (not from `--long` options). */
function shortFlags(args: string[]): Set<string> {
  const set = new Set<string>();
  for (const a of args) {
    if (a === '--') break;
    if (/^-[A-Za-z]+$/.test(a)) for (const ch of a.slice(1)) set.add(ch);
  }
  return set;
}

/** `kill -9 -1`, `kill -KILL -1`, `kill -s TERM -1`, `kill -- -1`: pid -1 is every process we may signal. */
function killsEverything(args: string[]): boolean {
  let i = 0;
  if (args[i] === '-s' || args[i] === '-n') i += 2;
  else if (args[i] !== undefined && args[i] !== '--' && /^-/.test(args[i]) && args.length > 1) i += 1;
  return args.slice(i).some((a) => a === '-1');
}

function isForkBomb(text: string): boolean {
  const defs = /(?:function\s+([\w:.-]+)\s*(?:\(\s*\))?|([A-Za-z_:.][\w:.-]*)\s*\(\s*\))\s*\{([^}]*)\}/g;
  for (const m of text.matchAll(defs)) {
    const name = escapeRegExp(m[1] ?? m[2]);
    const body = m[3];
    const self = `(?:^|[^\\w:.-])${name}`;
    if (new RegExp(`${self}\\s*\\|\\s*${name}(?:[^\\w:.-]|$)`).test(body) || new RegExp(`${self}\\s*&(?!&)`).test(body)) return true;
  }
  if (/\bfork\s*(\(\s*\))?\s*while\s*fork\b/.test(text)) return true;
  return /\bwhile\s*(\(\s*(1|true|True)\s*\)|true|True|1)?\s*[:{;]?[^;\n]*\bfork\s*\(/.test(text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Is this operand the filesystem root, the home folder (or an ancestor), FERMIX_HOME, an OS
 * top-level folder or a protected root? `$VAR/` counts as `/`: an unset variable makes
 * `rm -rf "$VAR/"` a delete of `/` (the Steam uninstaller bug).
 */
export function isCatastrophicTarget(word: string, context: HardlineContext): boolean {
  if (word === '' || word.includes(SUBSTITUTION)) return false;
  let t = word.replace(/\$\{HOME\}|\$HOME(?![\w])/g, context.home).replace(/^~(?=\/|$)/, context.home);
  if (/^~[A-Za-z_][\w.-]*\/?[*.]*$/.test(t)) return true; // ~user
  const variable = /^\$\{?[A-Za-z_]\w*\}?/.exec(t);
  if (variable) {
    const rest = t.slice(variable[0].length);
    return rest !== '' && stripGlobs(rest) === '/';
  }
  if (!t.startsWith('/')) {
    if (context.cwd === undefined) return false;
    t = path.posix.join(context.cwd, t);
  }
  const target = stripGlobs(t);
  if (target === '/' || isOsTopLevel(target)) return true;
  if (isWithin(context.home, target)) return true;
  if (context.fermixHome !== undefined && isWithin(context.fermixHome, target)) return true;
  return context.isProtected?.(target) ?? false;
}

/** `/`, `//`, `/.`, `/*`, `/./*`, `/..` all mean the root: normalise and drop trailing globs. */
function stripGlobs(p: string): string {
  let t = path.posix.normalize(p);
  for (;;) {
    const next = t.replace(/\/(\*+|\.\*|\.)$/, '').replace(/\/+$/, '');
    if (next === t) break;
    t = next;
  }
  return t === '' ? '/' : path.posix.normalize(t);
}

function hit(rule: HardlineRule, excerpt: string): HardlineHit {
  return { rule, description: DESCRIPTIONS[rule], excerpt: excerpt.replaceAll(SUBSTITUTION, '$(…)') };
}
