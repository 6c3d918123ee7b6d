/**
 * Sees through the words that run another command: `sudo`, `env`, `nice`, `timeout`, `xargs`,
 * `busybox`, shell keywords, `VAR=x` prefixes, and the ones that run a *string* as a script
 * (`sh -c`, `bash -lc`, `eval`, `su -c`, `env -S`, `watch`, `flock -c`), so hardline judges the
 * command that actually runs.
 */
import path from 'node:path';

export interface Unwrapped {
  /** The innermost command's words (name first); empty when only scripts remain. */
  words: string[];
  /** Strings that will be run as shell scripts: hardline scans them recursively. */
  scripts: string[];
  /** `sudo -S` / `sudo --stdin` was seen on the way in. */
  sudoStdin: boolean;
}

/** Words that only introduce the real command (they take no arguments of their own here). */
const PREFIX_WORDS = new Set([
  'if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', '}', 'exec', 'command', 'builtin',
  'nohup', 'unbuffer', 'fi', 'done', 'esac', 'coproc',
]);

interface Wrapper {
  /** Options that consume the following word. */
  argOptions: string[];
  /** Non-option words to skip before the wrapped command (timeout's duration, nice's nothing, …). */
  positional: number;
}

const WRAPPERS: Record<string, Wrapper> = {
  sudo: { argOptions: ['-u', '-g', '-p', '-C', '-D', '-h', '-r', '-t', '-U', '-T', '-R'], positional: 0 },
  doas: { argOptions: ['-u', '-C'], positional: 0 },
  env: { argOptions: ['-u', '-C', '--unset', '--chdir'], positional: 0 },
  nice: { argOptions: ['-n', '--adjustment'], positional: 0 },
  ionice: { argOptions: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'], positional: 0 },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  stdbuf: { argOptions: ['-i', '-o', '-e'], positional: 0 },
  chrt: { argOptions: [], positional: 1 },
  taskset: { argOptions: [], positional: 1 },
  xargs: { argOptions: ['-n', '-I', '-P', '-d', '-L', '-s', '-E', '-a', '--max-args', '--max-procs', '--delimiter'], positional: 0 },
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
};

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash']);

export function unwrapCommand(input: string[]): Unwrapped {
  const out: Unwrapped = { words: [...input], scripts: [], sudoStdin: false };
  for (let guard = 0; guard < 32 && out.words.length > 0; guard += 1) {
    const [first, ...rest] = out.words;
    if (PREFIX_WORDS.has(first) || /^[A-Za-z_]\w*(\[[^\]]*\])?\+?=/.test(first)) {
      out.words = rest;
      continue;
    }
    const name = path.posix.basename(first);
    if (SHELLS.has(name)) return shellScript(rest, out);
    if (name === 'eval') return withScript(out, rest.join(' '));
    if (name === 'watch') return withScript(out, rest.filter((w) => !w.startsWith('-')).join(' '));
    if (name === 'su' || name === 'flock' || name === 'env') {
      const script = optionValue(rest, name === 'env' ? ['-S', '--split-string'] : ['-c', '--command']);
      if (script !== undefined) return withScript(out, script);
      if (name === 'su') return { ...out, words: [] };
    }
    const wrapper = WRAPPERS[name];
    if (wrapper === undefined) return out;
    const { options, remaining } = skipOptions(rest, wrapper);
    // Only sudo's own options: `sudo ls -S` sorts by size, it does not read a password.
    if (name === 'sudo' && options.some((w) => w === '--stdin' || /^-[A-Za-z]*S[A-Za-z]*$/.test(w))) out.sudoStdin = true;
    out.words = remaining;
  }
  return out;
}

function withScript(out: Unwrapped, script: string): Unwrapped {
  return { ...out, words: [], scripts: [...out.scripts, script] };
}

/** `sh -c 'script' [argv0 args…]`, `bash -lc …`, `sh -e -c …`: the first operand after -c is the script. */
function shellScript(args: string[], out: Unwrapped): Unwrapped {
  let sawC = false;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (a === '-o' || a === '+o') {
      i += 1;
      continue;
    }
    if (a === '--') continue;
    if (/^[-+]/.test(a)) {
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) || a === '--command') sawC = true;
      continue;
    }
    return sawC ? withScript(out, a) : { ...out, words: ['sh', ...args] };
  }
  return { ...out, words: [] };
}

/** `-c 'x'`, `-c'x'`, `--command=x`, `--command x`. */
function optionValue(args: string[], names: string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    for (const n of names) {
      if (a === n) return args[i + 1];
      if (n.startsWith('--') && a.startsWith(`${n}=`)) return a.slice(n.length + 1);
      if (!n.startsWith('--') && a.startsWith(n) && a.length > n.length) return a.slice(n.length);
    }
  }
  return undefined;
}

function skipOptions(args: string[], wrapper: Wrapper): { options: string[]; remaining: string[] } {
  let i = 0;
  while (i < args.length) {
    const a = args[i];
    if (a === '--') {
      i += 1;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    i += wrapper.argOptions.includes(a) ? 2 : 1;
  }
  return { options: args.slice(0, i), remaining: args.slice(i + wrapper.positional) };
}
