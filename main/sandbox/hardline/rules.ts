/**
 * The per-command rules: one simple command (wrappers already removed) against the catastrophic
 * patterns. Words are compared as plain strings; the only loops are over the words. `find -exec`
 * hands its command back to the judge (`judgeInner`), so `-exec sh -c 'rm -rf "$1"' _ {}` is seen
 * through like any other command.
 */
import path from 'node:path';
import { isLiteral, type Cmd, type Pipeline, type Word } from './model.js';
import type { HardlineRule } from './rule-names.js';
import { interpreterName, isShell } from './programs.js';
import { isCatastrophicTarget, type TargetContext } from './targets.js';
import { mayWrap } from './unwrap.js';
import { programName } from './program-name.js';

export interface RuleHit {
  rule: HardlineRule;
}

export type JudgeInner = (words: Word[]) => HardlineRule | undefined;

const NO_INNER: JudgeInner = () => undefined;

const BLOCK_DEVICE = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|md\/|dm-\d|mapper\/.|disk\/by-[^/]{1,40}\/.|block\/.|loop\d|nbd\d|sr\d|zd\d|bcache\d|mem$|kmem$|port$)/;
const BLOCK_PREFIX_GLOB = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|r?disk|md|dm-|mapper|block|loop|nbd)/;
const MKFS = /^(?:mkfs(?:\.[\w.]{1,20})?|mke2fs|mkswap|wipefs|mkdosfs|mkntfs|mkexfatfs|mkudffs|mkreiserfs|mkfs_[\w]{1,20}|newfs(?:_[\w]{1,20})?)$/;
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'kexec', 'systemd-reboot', 'xfce4-session-logout', 'gnome-session-quit']);
const SYSTEMCTL_POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot', 'emergency', 'rescue', 'default', 'exit']);
const POWER_TARGETS = /^(?:poweroff|reboot|halt|kexec|soft-reboot|rescue|emergency|ctrl-alt-del|shutdown|final|exit)\.target$/;
const UNIT_VERBS = new Set(['start', 'isolate', 'restart', 'try-restart', 'reload-or-restart', 'try-reload-or-restart', 'enable', 'reenable']);
const DBUS_TOOLS = new Set(['dbus-send', 'busctl', 'gdbus', 'qdbus', 'qdbus6', 'qdbus-qt5', 'dbus-call']);
const DBUS_POWER_METHOD = /(?:^|\.)(?:PowerOff|Reboot|Halt|KExec|SoftReboot|PowerOffWithFlags|RebootWithFlags|HaltWithFlags|ScheduleShutdown|Shutdown|RequestShutdown|RequestReboot)$/;
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

export function isBlockDevice(word: Word): boolean {
  const t = word.text;
  if (!t.startsWith('/dev/')) return false;
  if (BLOCK_DEVICE.test(t)) return true;
  return word.pattern !== undefined && BLOCK_PREFIX_GLOB.test(t);
}

function isSysrq(word: Word): boolean {
  return path.posix.normalize(word.text) === '/proc/sysrq-trigger';
}

function isPowerFile(word: Word): boolean {
  const t = path.posix.normalize(word.text);
  return t === '/sys/power/state' || t === '/sys/power/disk';
}

/** A redirection that writes: `> /dev/sda`, `>> /proc/sysrq-trigger`. */
export function judgeRedirect(op: string, target: Word): HardlineRule | undefined {
  if (!WRITE_REDIRECTS.has(op)) return undefined;
  if (op === '>&' && /^\d+$/.test(target.text)) return undefined;
  if (isBlockDevice(target)) return 'disk_write';
  if (isSysrq(target)) return 'sysrq';
  if (isPowerFile(target)) return 'power';
  return undefined;
}

/** Single-letter flags from `-rf`, `-R`, … (not from `--long` options), as one string with `has`. */
function shortFlags(args: string[]): { has(flag: string): boolean } {
  let letters = '';
  for (const a of args) {
    if (a === '--') break;
    if (a.length > 1 && a.length < 40 && a[0] === '-' && a[1] !== '-' && /^-[A-Za-z]+$/.test(a)) letters += a.slice(1);
  }
  return { has: (flag) => letters.includes(flag) };
}

/** Every program name judgeWords has a rule for (the judge skips the others early). */
const RULE_NAMES = new Set([
  'rm', 'srm', 'rsync', 'find', 'chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'mv', 'dd', 'dcfldd', 'tee', 'cp', 'install', 'shred',
  'truncate', 'pv', 'ddrescue', 'killall5', 'kill', 'pkill', 'killall', 'loginctl', 'systemctl', 'init', 'telinit', 'shutdown',
  'osascript', 'blkdiscard', 'sg_format', 'sg_sanitize', 'sgdisk', 'parted', 'fdisk', 'gdisk', 'cfdisk', 'cgdisk', 'sfdisk', 'hdparm',
  'nvme', 'cryptsetup', 'mdadm', 'dmsetup', 'lvremove', 'vgremove', 'pvremove', 'zpool', 'zfs', 'badblocks', 'flashrom',
]);

export function isRuleName(base: string): boolean {
  return RULE_NAMES.has(base) || POWER.has(base) || DBUS_TOOLS.has(base) || ((base.startsWith('mk') || base.startsWith('newfs') || base === 'wipefs') && MKFS.test(base));
}

/**
 * A command no rule can be about: a literal program name that is not a wrapper, a shell, an
 * interpreter or a program with a rule, with no redirection or here-doc. Most commands are.
 */
export function isPlainCommand(cmd: Cmd): boolean {
  if (cmd.redirects.length > 0 || cmd.feeds.length > 0 || cmd.words.length === 0) return false;
  const first = cmd.words[0];
  if (first.dynamic || first.fetched || first.pattern !== undefined) return false;
  const t = first.text;
  if (mayWrap(t)) return false;
  const name = programName(t);
  return !isRuleName(name) && !isShell(name) && interpreterName(name) === undefined && name !== 'source' && name !== '.';
}

/** Plain, and also nothing the judge follows (`cd`, a fetcher's or `echo`'s output, `wait`): it can be dropped. */
export function isInertCommand(cmd: Cmd): boolean {
  if (!isPlainCommand(cmd)) return false;
  const name = programName(cmd.words[0].text);
  return !INERT_EXCEPTIONS.has(name) && !cmd.words.some((w) => w.fetched || w.sources !== undefined);
}

const INERT_EXCEPTIONS = new Set(['cd', 'pushd', 'wait', 'echo', 'printf', 'cat', 'tee', 'base64', 'rev', 'curl', 'wget', 'fetch', 'aria2c', 'nc', 'ncat', 'netcat', 'socat', 'http', 'https', 'xh', 'lwp-request', 'GET', 'lynx', 'links', 'w3m', 'telnet', 'ftp', 'tftp', 'openssl', 'pgrep', 'ps', 'pidof']);

export function judgeWords(words: Word[], context: TargetContext, judgeInner: JudgeInner = NO_INNER): HardlineRule | undefined {
  const [nameWord, ...argWords] = words;
  if (nameWord === undefined) return undefined;
  const base = programName(nameWord.text);
  const args = argWords.map((w) => w.text);
  const operandWords = argWords.filter((w) => !w.text.startsWith('-') || w.text === '-');
  const dangerous = (w: Word) => isCatastrophicTarget(w, context);
  const flags = shortFlags(args);
  const anyDangerous = (list: Word[]) => anyCatastrophic(list, context);

  switch (base) {
    case 'rm':
    case 'srm': {
      if (args.includes('--no-preserve-root')) return 'recursive_delete';
      const recursive = flags.has('r') || flags.has('R') || args.includes('--recursive');
      if (recursive && anyDangerous(operandWords)) return 'recursive_delete';
      return undefined;
    }
    case 'rsync': {
      const deletes = args.some((a) => a.startsWith('--delete') || a === '--remove-source-files');
      const destination = operandWords[operandWords.length - 1];
      if (deletes && operandWords.length >= 2 && destination !== undefined && dangerous(destination)) return 'recursive_delete';
      return operandWords.some(isBlockDevice) ? 'disk_write' : undefined;
    }
    case 'find':
      return judgeFind(argWords, context, judgeInner);
    case 'chmod':
    case 'chown':
    case 'chgrp':
    case 'chattr':
    case 'setfacl': {
      const recursive = flags.has('R') || args.includes('--recursive');
      if (recursive && anyDangerous(operandWords)) return 'recursive_permissions';
      return undefined;
    }
    case 'mv':
      return anyDangerous(operandWords.slice(0, -1)) ? 'move_root' : undefined;
    case 'dd':
    case 'dcfldd': {
      const of = argWords.find((w) => w.text.startsWith('of='));
      if (of === undefined) return undefined;
      const target = { ...of, text: of.text.slice(3), pattern: of.pattern?.slice(3) };
      if (isBlockDevice(target)) return 'disk_write';
      if (isSysrq(target)) return 'sysrq';
      return undefined;
    }
    case 'tee':
    case 'cp':
    case 'install':
    case 'shred':
    case 'truncate':
    case 'pv':
    case 'ddrescue':
      if (operandWords.some(isSysrq)) return 'sysrq';
      if (operandWords.some(isPowerFile) && base === 'tee') return 'power';
      if (base === 'cp' || base === 'install' || base === 'ddrescue') return operandWords.length >= 2 && isBlockDevice(operandWords[operandWords.length - 1]) ? 'disk_write' : undefined;
      return operandWords.some(isBlockDevice) ? 'disk_write' : undefined;
    case 'killall5':
      return 'mass_kill';
    case 'kill':
      return killsEverything(args) ? 'mass_kill' : undefined;
    case 'pkill':
    case 'killall':
    case 'pgrep': {
      if (base === 'pgrep') return undefined;
      const byUser = args.some((a) => a === '-u' || a === '-U' || a.startsWith('--user') || a.startsWith('--euid') || a.startsWith('--uid') || (a.startsWith('-u') && a.length > 2 && base === 'pkill'));
      const inverse = base === 'pkill' && (flags.has('v') || args.includes('--inverse'));
      const childrenOfInit = base === 'pkill' && args.some((a, i) => (a === '-P' || a === '--parent') && args[i + 1] === '1');
      const regexAll = base === 'killall' && (flags.has('r') || args.includes('--regexp')) && operandWords.some((w) => matchesEverything(w.text));
      if (byUser || inverse || childrenOfInit || regexAll || (base === 'pkill' && operandWords.some((w) => matchesEverything(w.text)))) return 'mass_kill';
      return undefined;
    }
    case 'loginctl': {
      const verb = operandWords[0]?.text;
      if (verb === 'poweroff' || verb === 'reboot' || verb === 'halt' || verb === 'kexec') return 'power';
      if (verb === 'terminate-user' || verb === 'kill-user' || verb === 'terminate-session' || verb === 'kill-session' || verb === 'terminate-seat') return 'mass_kill';
      return undefined;
    }
    case 'systemctl': {
      const verbIndex = operandWords.findIndex((w) => !w.text.includes('='));
      const verb = operandWords[verbIndex]?.text;
      if (verb !== undefined && SYSTEMCTL_POWER.has(verb)) return 'power';
      if (verb !== undefined && UNIT_VERBS.has(verb) && operandWords.slice(verbIndex + 1).some((w) => POWER_TARGETS.test(w.text))) return 'power';
      return undefined;
    }
    case 'init':
    case 'telinit':
      return operandWords.some((w) => ['0', '6', '1', 's', 'S'].includes(w.text)) ? 'power' : undefined;
    case 'shutdown':
      return args.includes('-c') || args.includes('--cancel') || args.includes('--show') ? undefined : 'power';
    case 'osascript':
      return args.some((a) => /shut down|restart|log out/i.test(a.slice(0, 4096))) ? 'power' : undefined;
    case 'blkdiscard':
    case 'sg_format':
    case 'sg_sanitize':
      return 'disk_tool';
    case 'sgdisk':
      return onlyOptions(args, ['-p', '--print', '-v', '--verify', '-i', '--info', '-L', '--list-types', '-O', '--print-mbr', '-P', '--pretend', '-b', '--backup', '-V', '--version', '-?', '--help']) ? undefined : 'disk_tool';
    case 'parted': {
      if (args.some((a) => a === '-l' || a === '--list' || a === '-v' || a === '--version' || a === '-h' || a === '--help')) return undefined;
      const commands = operandWords.slice(1).map((w) => w.text);
      return commands.length > 0 && commands.every((c) => ['print', 'p', 'unit', 's', 'B', 'MiB', 'GiB', 'help', 'version', 'free'].includes(c)) ? undefined : 'disk_tool';
    }
    case 'fdisk':
    case 'gdisk':
    case 'cfdisk':
    case 'cgdisk':
      return args.some((a) => a === '-l' || a === '--list' || a === '-x' || a === '--list-details' || a === '-V' || a === '--version' || a === '-h' || a === '--help') ? undefined : 'disk_tool';
    case 'sfdisk':
      return args.some((a) => ['-l', '--list', '-d', '--dump', '-J', '--json', '-s', '--show-size', '-V', '--verify', '-g', '--show-geometry', '-F', '--list-free', '-r', '--reorder', '-v', '--version', '-h', '--help'].includes(a)) ? undefined : 'disk_tool';
    case 'hdparm':
      return args.some((a) => /^--(?:security-erase|security-set-pass|trim-sector-ranges|write-sector|make-bad-sector|dco-restore|dco-setmax|fwdownload)/.test(a) || /^-N/.test(a)) ? 'disk_tool' : undefined;
    case 'nvme':
      return ['format', 'sanitize', 'write-zeroes', 'write-uncor', 'delete-ns', 'ns-delete', 'write', 'dsm'].includes(operandWords[0]?.text ?? '') ? 'disk_tool' : undefined;
    case 'cryptsetup':
      return operandWords.some((w) => ['luksFormat', 'erase', 'luksErase', 'reencrypt'].includes(w.text)) ? 'disk_tool' : undefined;
    case 'mdadm':
      return args.some((a) => a === '--zero-superblock' || a === '--create' || a === '-C') ? 'disk_tool' : undefined;
    case 'dmsetup':
      return operandWords.some((w) => w.text === 'remove_all' || w.text === 'wipe_table') ? 'disk_tool' : undefined;
    case 'lvremove':
    case 'vgremove':
    case 'pvremove':
      return 'disk_tool';
    case 'zpool':
      return ['destroy', 'labelclear'].includes(operandWords[0]?.text ?? '') ? 'disk_tool' : undefined;
    case 'zfs':
      return operandWords[0]?.text === 'destroy' ? 'disk_tool' : undefined;
    case 'badblocks':
      return flags.has('w') ? 'disk_tool' : undefined;
    case 'flashrom':
      return args.some((a) => a === '-w' || a === '--write' || a === '-E' || a === '--erase') ? 'disk_tool' : undefined;
    default:
      break;
  }
  if (MKFS.test(base)) return 'mkfs';
  if (POWER.has(base)) return 'power';
  if (DBUS_TOOLS.has(base) && args.some((a) => a.includes('org.freedesktop.login1') || a.includes('org.freedesktop.systemd1') || a.includes('SessionManager') || a.includes('ksmserver'))) {
    if (args.some((a) => DBUS_POWER_METHOD.test(a))) return 'power';
  }
  return undefined;
}

/** `rm -rf a a a …`: each distinct operand is judged once. */
function anyCatastrophic(list: Word[], context: TargetContext): boolean {
  if (list.length === 1) return isCatastrophicTarget(list[0], context);
  const seen = new Set<string>();
  for (const w of list) {
    const key = w.pattern === undefined ? w.text : `${w.text}\u0000${w.pattern}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (isCatastrophicTarget(w, context)) return true;
  }
  return false;
}

function onlyOptions(args: string[], safe: string[]): boolean {
  return args.every((a) => !a.startsWith('-') || safe.includes(a) || safe.some((s) => s.startsWith('--') && a.startsWith(`${s}=`)));
}

/** A process-name pattern that matches every process: `.`, `.*`, `''`, `^`, `(.)`. */
export function matchesEverything(pattern: string): boolean {
  return pattern.length <= 16 && /^[.*+?^$()|]*$/.test(pattern);
}

/** `kill -9 -1`, `kill -KILL -1`, `kill -s TERM -1`, `kill -- -1`: pid -1 is every process we may signal. */
function killsEverything(args: string[]): boolean {
  let i = 0;
  if (args[i] === '-s' || args[i] === '-n' || args[i] === '--signal') i += 2;
  else if (args[i] !== undefined && args[i] !== '--' && /^-/.test(args[i]) && args.length > 1) i += 1;
  return args.slice(i).some((a) => a === '-1');
}

/**
 * Does a kill's pid list come from every process? `kill $(pgrep .)`, `kill -9 $(ps -e -o pid=)`,
 * `pgrep -f . | xargs kill`: the producing pipeline lists everything.
 */
export function listsEveryProcess(pipelines: Pipeline[]): boolean {
  return pipelines.some((p) => {
    const names = p.stages.map((s) => programName(s.words[0]?.text ?? ''));
    if (names.some((n) => n === 'grep' || n === 'egrep' || n === 'fgrep' || n === 'rg' || n === 'head' || n === 'tail' || n === 'sed')) return false;
    return p.stages.some((s) => {
      const name = programName(s.words[0]?.text ?? '');
      const args = s.words.slice(1).map((w) => w.text);
      const operands = args.filter((a) => !a.startsWith('-'));
      if (name === 'pgrep' || name === 'pidof') {
        if (args.includes('-v') || args.includes('--inverse')) return true;
        if (args.some((a) => a === '-u' || a === '-U')) return true;
        return name === 'pgrep' && operands.length > 0 && operands.every(matchesEverything);
      }
      if (name === 'ps') return args.some((a) => ['-e', '-A', 'aux', 'ax', '-ef', '-eo', 'axo', '-aux', 'x', '-ax'].includes(a) || /^-e[A-Za-z]*$/.test(a));
      return false;
    });
  });
}

/** `find [-H|-L|-P|-O3|-D x] path… expression`: the paths come before the first -/(/! word (default `.`). */
function judgeFind(args: Word[], context: TargetContext, judgeInner: JudgeInner): HardlineRule | undefined {
  let i = 0;
  while (i < args.length && /^-(?:[HLP]|O\d*)$/.test(args[i].text)) i += 1;
  if (args[i]?.text === '-D') i += 2;
  const roots: Word[] = [];
  while (i < args.length && !/^[-(!]/.test(args[i].text)) roots.push(args[i++]);
  if (roots.length === 0) roots.push({ text: '.', dynamic: false, fetched: false, procSubst: false });
  const dangerousRoot = roots.find((r) => isCatastrophicTarget(r, context));
  if (dangerousRoot === undefined) return undefined;
  const expression = args.slice(i);
  if (expression.some((w) => w.text === '-delete')) return 'find_delete';
  for (let k = 0; k < expression.length; k += 1) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(expression[k].text)) continue;
    const command: Word[] = [];
    let j = k + 1;
    for (; j < expression.length && expression[j].text !== ';' && expression[j].text !== '+'; j += 1) {
      const w = expression[j];
      // The first path find hands over is the root itself.
      command.push(w.text.includes('{}') ? { ...w, text: w.text.replaceAll('{}', dangerousRoot.text), pattern: dangerousRoot.pattern, dynamic: dangerousRoot.dynamic } : w);
    }
    k = j;
    const name = programName(command[0]?.text ?? '');
    if (['rm', 'shred', 'unlink', 'rmdir', 'srm'].includes(name) && command.some((w) => w.text === dangerousRoot.text)) return 'find_delete';
    if (judgeInner(command) !== undefined) return 'find_delete';
  }
  return undefined;
}

/** Operands a producer stage emits for xargs: `echo / ~`, `printf '%s\n' /`, `find /` without filters. */
export function literalOutputWords(words: Word[]): Word[] | undefined {
  const name = programName(words[0]?.text ?? '');
  const args = words.slice(1);
  if (!args.every(isLiteral)) return undefined;
  if (name === 'echo') return args.filter((w, k) => !(k === 0 && /^-[neE]+$/.test(w.text)));
  if (name === 'printf') return args.slice(1);
  if (name === 'find') {
    const roots = args.filter((w) => !w.text.startsWith('-'));
    const filters = args.filter((w) => w.text.startsWith('-') && !['-L', '-H', '-P', '-print', '-print0', '-maxdepth', '-mindepth', '-depth', '-xdev', '-mount'].includes(w.text));
    return filters.length === 0 ? roots : undefined;
  }
  return undefined;
}

