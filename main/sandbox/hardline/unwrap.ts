/**
 * Sees through the words that run another command: `sudo`, `env`, `nice`, `timeout`, `busybox`,
 * `systemd-run`, `VAR=x` prefixes, and the ones that run a *string* as a script (`sh -c`,
 * `bash -lc`, `eval`, `su -c`, `env -S`, `watch`, `flock -c`, `trap`), so hardline judges the
 * command that actually runs. `xargs` and `parallel` are reported rather than skipped: the
 * operands they add come from stdin or from `:::`, and the judge supplies them.
 */
import { literalWord, type Word } from './model.js';
import { programName } from './program-name.js';

export interface ScriptArg {
  word: Word;
  /** `$0`, `$1`, … for `sh -c SCRIPT ARG0 ARG1 …`. */
  positional?: string[];
}

export interface Unwrapped {
  /** The innermost command's words (name first); empty when only scripts remain. */
  words: Word[];
  /** Strings that will be run as shell scripts. */
  scripts: ScriptArg[];
  /** `sudo -S` / `sudo --stdin` was seen on the way in. */
  sudoStdin: boolean;
  /** `xargs [-I R]`: operands (or R) come from stdin. */
  xargs?: { replace?: string };
  /** `parallel CMD ::: A B`: the inputs after `:::` (stdin when there is none). */
  parallel?: { inputs: Word[] | undefined };
}

/** Words that only introduce the real command (they take no arguments of their own here). */
const PREFIX_WORDS = new Set([
  'if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', '}', 'exec', 'command', 'builtin',
  'nohup', 'unbuffer', 'fi', 'done', 'esac', 'coproc', 'time', 'noglob', 'nocorrect',
]);

interface Wrapper {
  /** Options that consume the following word. */
  argOptions: string[];
  /** Non-option words to skip before the wrapped command (timeout's duration, …). */
  positional: number;
}

const WRAPPERS: Record<string, Wrapper> = {
  sudo: { argOptions: ['-u', '-g', '-p', '-C', '-D', '-h', '-r', '-t', '-U', '-T', '-R', '--user', '--group', '--prompt', '--chdir'], positional: 0 },
  doas: { argOptions: ['-u', '-C'], positional: 0 },
  pkexec: { argOptions: ['--user'], positional: 0 },
  env: { argOptions: ['-u', '-C', '--unset', '--chdir'], positional: 0 },
  nice: { argOptions: ['-n', '--adjustment'], positional: 0 },
  ionice: { argOptions: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'], positional: 0 },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  stdbuf: { argOptions: ['-i', '-o', '-e'], positional: 0 },
  chrt: { argOptions: [], positional: 1 },
  taskset: { argOptions: [], positional: 1 },
  busybox: { argOptions: [], positional: 0 },
  strace: { argOptions: ['-o', '-e', '-p', '-s', '-u', '-P'], positional: 0 },
  ltrace: { argOptions: ['-o', '-e', '-p', '-s', '-u'], positional: 0 },
  flock: { argOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'], positional: 1 },
  unshare: { argOptions: [], positional: 0 },
  nsenter: { argOptions: ['-t', '--target'], positional: 0 },
  runuser: { argOptions: ['-u', '-g', '-G', '--user', '--group'], positional: 0 },
  sg: { argOptions: [], positional: 1 },
  chroot: { argOptions: ['--userspec', '--groups'], positional: 1 },
  time: { argOptions: ['-f', '-o', '--format', '--output'], positional: 0 },
  setsid: { argOptions: [], positional: 0 },
  caffeinate: { argOptions: ['-t', '-w'], positional: 0 },
  'systemd-run': { argOptions: ['-p', '--property', '-u', '--unit', '-E', '--setenv', '--uid', '--gid', '--slice', '-M', '--machine', '--description'], positional: 0 },
  'xvfb-run': { argOptions: ['-n', '--server-num', '-s', '--server-args', '-f', '--auth-file', '-e', '--error-file', '-p', '--xauth-protocol'], positional: 0 },
  exec: { argOptions: ['-a'], positional: 0 },
};

const XARGS_ARG_OPTIONS = ['-n', '-I', '-i', '-P', '-d', '-L', '-l', '-s', '-E', '-e', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-lines', '--max-chars', '--eof', '--replace', '--process-slot-var'];
const PARALLEL_ARG_OPTIONS = ['-j', '--jobs', '-S', '--sshlogin', '--joblog', '--results', '--delay', '--timeout', '-n', '-N', '--max-args', '--colsep', '-C', '--tag-string', '--tagstring', '-I', '--basefile', '--workdir', '--env', '--halt', '--retries', '-a', '--arg-file', '--memfree', '--load', '--nice'];

/** Names handled below besides WRAPPERS. */
const SPECIAL = new Set(['command', 'builtin', 'time', 'eval', 'watch', 'trap', 'alias', 'su', 'flock', 'env', 'runuser', 'script', 'xargs', 'parallel', 'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'ksh93', 'oksh', 'loksh']);

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'ksh93', 'oksh', 'loksh']);

const NO_SCRIPTS: ScriptArg[] = [];

/** Could a command starting with this word run another command (a wrapper, a keyword, `VAR=x`)? */
export function mayWrap(first: string): boolean {
  const base = programName(first);
  return PREFIX_WORDS.has(first) || first.includes('=') || SPECIAL.has(base) || Object.hasOwn(WRAPPERS, base);
}

export function unwrapCommand(input: Word[]): Unwrapped {
  // Most commands start with a plain program name: nothing to see through.
  const first = input[0];
  if (first === undefined || !mayWrap(first.text)) return { words: input, scripts: NO_SCRIPTS, sudoStdin: false };
  const out: Unwrapped = { words: [...input], scripts: [], sudoStdin: false };
  for (let guard = 0; guard < 32 && out.words.length > 0; guard += 1) {
    const [first, ...rest] = out.words;
    const t = first.text;
    if (PREFIX_WORDS.has(t) && t !== 'exec' && t !== 'command' && t !== 'time') {
      out.words = rest;
      continue;
    }
    if (t.includes('=') && /^[A-Za-z_]\w*(\[[^\]]*\])?\+?=/.test(t.slice(0, 256))) {
      out.words = rest;
      continue;
    }
    const name = programName(t);
    if (name === 'command' || name === 'builtin') {
      // `command -v rm` only prints where rm is.
      if (rest.some((w) => w.text === '-v' || w.text === '-V')) return { ...out, words: [] };
      out.words = rest.filter((w, i) => !(i === 0 && w.text === '-p'));
      continue;
    }
    if (name === 'time') {
      out.words = rest.filter((w, i) => !(i === 0 && w.text === '-p'));
      continue;
    }
    if (SHELLS.has(name)) return shellScript(first, rest, out);
    if (name === 'eval') return withScript(out, joinWords(rest));
    if (name === 'watch') return withScript(out, joinWords(skipOptions(rest, { argOptions: ['-n', '--interval', '-d', '--differences'], positional: 0 }).remaining));
    if (name === 'alias') {
      // `alias x='rm -rf /'` runs its value wherever `x` is typed later: judge the value as a script.
      for (const w of rest) {
        const eq = w.text.indexOf('=');
        if (eq > 0) out.scripts.push({ word: { ...w, text: w.text.slice(eq + 1) } });
      }
      return { ...out, words: [] };
    }
    if (name === 'trap') {
      const operands = rest.filter((w) => !w.text.startsWith('-'));
      if (operands.length >= 2 && !rest.some((w) => w.text === '-l' || w.text === '-p')) return withScript(out, operands[0]);
      return { ...out, words: [] };
    }
    if (name === 'su' || name === 'flock' || name === 'env' || name === 'runuser' || name === 'script') {
      // `script -qc CMD`, `su -lc CMD`: a short-option cluster ending in c takes the command.
      const cluster = name === 'env' ? -1 : rest.findIndex((w) => w.text.length < 16 && /^-[A-Za-z]+c$/.test(w.text));
      const script = cluster !== -1 && rest[cluster + 1] !== undefined ? rest[cluster + 1] : optionValue(rest, name === 'env' ? ['-S', '--split-string'] : ['-c', '--command']);
      if (script !== undefined) return withScript(out, script);
      if (name === 'su' || name === 'script') return { ...out, words: [] };
    }
    if (name === 'xargs') {
      const { options, remaining } = skipOptions(rest, { argOptions: XARGS_ARG_OPTIONS, positional: 0 });
      const replaceOption = options.findIndex((w) => w.text === '-I' || w.text === '--replace' || w.text.startsWith('-I') || w.text.startsWith('--replace=') || w.text === '-i');
      let replace: string | undefined;
      if (replaceOption !== -1) {
        const o = options[replaceOption].text;
        replace = o === '-I' || o === '--replace' ? options[replaceOption + 1]?.text : o === '-i' ? '{}' : o.startsWith('--replace=') ? o.slice(10) : o.slice(2);
      }
      out.xargs = { replace };
      out.words = remaining.length > 0 ? remaining : [literalWord('echo')];
      continue;
    }
    if (name === 'parallel') {
      const { remaining } = skipOptions(rest, { argOptions: PARALLEL_ARG_OPTIONS, positional: 0 });
      const sep = remaining.findIndex((w) => w.text === ':::' || w.text === '::::' || w.text === ':::+');
      out.parallel = { inputs: sep === -1 ? undefined : remaining.slice(sep + 1).filter((w) => !w.text.startsWith(':::')) };
      out.words = sep === -1 ? remaining : remaining.slice(0, sep);
      continue;
    }
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (wrapper === undefined) return out;
    const { options, remaining } = skipOptions(rest, wrapper);
    // Only sudo's own options: `sudo ls -S` sorts by size, it does not read a password.
    if (name === 'sudo' && options.some((w) => w.text === '--stdin' || /^-[A-Za-z]*S[A-Za-z]*$/.test(w.text.slice(0, 64)))) out.sudoStdin = true;
    out.words = remaining;
  }
  return out;
}

function joinWords(words: Word[]): Word {
  return { text: words.map((w) => w.text).join(' '), dynamic: words.some((w) => w.dynamic), fetched: words.some((w) => w.fetched), procSubst: false };
}

function withScript(out: Unwrapped, script: Word, positional?: string[]): Unwrapped {
  return { ...out, words: [], scripts: [...out.scripts, { word: script, positional }] };
}

/** `sh -c 'script' [argv0 args…]`, `bash -lc …`, `sh -e -c …`: the first operand after -c is the script. */
function shellScript(shell: Word, args: Word[], out: Unwrapped): Unwrapped {
  let sawC = false;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i].text;
    if (a === '-o' || a === '+o' || a === '--rcfile' || a === '--init-file') {
      i += 1;
      continue;
    }
    if (a === '--') continue;
    if (/^[-+]/.test(a) && a.length < 64) {
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) || a === '--command') sawC = true;
      continue;
    }
    return sawC ? withScript(out, args[i], args.slice(i + 1).map((w) => w.text)) : { ...out, words: [shell, ...args] };
  }
  return { ...out, words: [shell, ...args] };
}

/** `-c 'x'`, `-c'x'`, `--command=x`, `--command x`. */
function optionValue(args: Word[], names: string[]): Word | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i].text;
    for (const n of names) {
      if (a === n) return args[i + 1];
      if (n.startsWith('--') && a.startsWith(`${n}=`)) return { ...args[i], text: a.slice(n.length + 1) };
      if (!n.startsWith('--') && a.startsWith(n) && a.length > n.length) return { ...args[i], text: a.slice(n.length) };
    }
  }
  return undefined;
}

export function skipOptions(args: Word[], wrapper: Wrapper): { options: Word[]; remaining: Word[] } {
  let i = 0;
  while (i < args.length) {
    const a = args[i].text;
    if (a === '--') {
      i += 1;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    i += wrapper.argOptions.includes(a) ? 2 : 1;
  }
  return { options: args.slice(0, i), remaining: args.slice(i + wrapper.positional) };
}
