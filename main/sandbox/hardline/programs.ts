/**
 * What hardline knows about programs: which fetch from the network, which interpret code (and how
 * they are told to read it from stdin), and how a pipeline stage passes text on.
 */
import type { Word } from './model.js';
import { SHELLS, unwrapCommand } from './unwrap.js';
import { programName } from './program-name.js';

/** Programs whose output is whatever a remote host sent. */
export const FETCHERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'nc', 'ncat', 'netcat', 'socat', 'http', 'https', 'xh', 'lwp-request', 'GET', 'lynx', 'links', 'w3m', 'telnet', 'ftp', 'tftp', 'openssl']);

/** Interpreters other than the shells, with the options that pass code on the command line. */
export const INTERPRETERS: Record<string, { code: string[]; module: string[] }> = {
  python: { code: ['-c'], module: ['-m'] },
  perl: { code: ['-e', '-E'], module: [] },
  ruby: { code: ['-e'], module: [] },
  node: { code: ['-e', '--eval', '-p', '--print'], module: [] },
  php: { code: ['-r'], module: [] },
  lua: { code: ['-e'], module: [] },
  deno: { code: [], module: [] },
  bun: { code: ['-e', '--eval'], module: [] },
  Rscript: { code: ['-e'], module: [] },
  tclsh: { code: [], module: [] },
  pwsh: { code: ['-c', '-Command', '-command'], module: [] },
};

/** `python3.12` → `python`, `/usr/bin/nodejs` → `node`, `perl5.36` → `perl`. */
export function interpreterName(word: string): string | undefined {
  const base = programName(word);
  if (base.length > 16) return undefined;
  const exact = EXACT_INTERPRETERS.get(base);
  if (exact !== undefined) return exact;
  for (const [prefix, name] of VERSIONED) {
    if (base.startsWith(prefix) && /^[0-9.]*$/.test(base.slice(prefix.length))) return name;
  }
  return undefined;
}

const EXACT_INTERPRETERS = new Map<string, string>([
  ['pypy', 'python'], ['pypy3', 'python'], ['jruby', 'ruby'], ['node', 'node'], ['nodejs', 'node'], ['luajit', 'lua'],
  ...Object.keys(INTERPRETERS).map((k): [string, string] => [k, k]),
]);
const VERSIONED: Array<[string, string]> = [['python', 'python'], ['perl', 'perl'], ['ruby', 'ruby'], ['php', 'php'], ['lua', 'lua']];

/** Short-option clusters that end with the code option: `perl -ne CODE`, `python -Bc CODE`. */
function codeCluster(interp: string, a: string): boolean {
  if (a.length > 16) return false;
  if (interp === 'python') return /^-[A-Za-z]*c$/.test(a);
  if (interp === 'perl') return /^-[A-Za-z]*[eE]$/.test(a);
  if (interp === 'ruby') return /^-[A-Za-z]*e$/.test(a);
  return false;
}

export function isShell(word: string): boolean {
  return SHELLS.has(programName(word));
}

/** Is this command (after sudo/env/timeout…) a network fetcher writing to its stdout? */
export function isFetcherCommand(words: Word[], unwrapped = false): boolean {
  if (words.length === 0) return false;
  const inner = unwrapped ? words : unwrapCommand(words).words;
  const name = inner[0] === undefined ? '' : programName(inner[0].text);
  if (!FETCHERS.has(name)) return false;
  const args = inner.slice(1).map((w) => w.text);
  // `curl -o file URL` / `wget -O file URL` write to a file, not to the pipe.
  if (name === 'curl') {
    const toStdout = (target: string | undefined) => target === '-' || target === '/dev/stdout' || target === '/dev/fd/1' || target === '/proc/self/fd/1';
    return !args.some((a, i) => ((a === '-o' || a === '--output') && !toStdout(args[i + 1])) || a === '-O' || a === '--remote-name' || a === '--remote-name-all'
      || (a.startsWith('-o') && a.length > 2 && !toStdout(a.slice(2))) || (a.startsWith('--output=') && !toStdout(a.slice(9))));
  }
  if (name === 'wget') {
    const out = args.findIndex((a) => a === '-O' || a === '--output-document');
    if (out !== -1) return args[out + 1] === '-';
    const glued = args.find((a) => /^-[A-Za-z]*O/.test(a) && !/^-[A-Za-z]*O$/.test(a));
    if (glued !== undefined) return glued.endsWith('O-');
    return args.some((a) => /^-[A-Za-z]*O$/.test(a) && args[args.indexOf(a) + 1] === '-') || args.includes('-qO-');
  }
  if (name === 'aria2c') return args.some((a) => a === '-o-' || a === '--out=-' || a === '-d/dev/stdout');
  if (name === 'openssl') return args[0] === 's_client';
  return true;
}

/**
 * Does an interpreter invocation (words after unwrap) read its program from stdin? `sh`, `bash -s`,
 * `python -`, `python` with no script; not `python -m json.tool`, `node app.js`, `bash script.sh`.
 */
export function readsProgramFromStdin(words: Word[]): boolean {
  const name = words[0]?.text ?? '';
  const args = words.slice(1).map((w) => w.text);
  if (isShell(name)) {
    if (args.some((a) => /^-[A-Za-z]*s[A-Za-z]*$/.test(a))) return true;
    for (let i = 0; i < args.length; i += 1) {
      const a = args[i];
      if (a === '-o' || a === '+o' || a === '--rcfile' || a === '--init-file') {
        i += 1;
        continue;
      }
      if (a === '--') return args[i + 1] === undefined || args[i + 1] === '-' || args[i + 1] === '/dev/stdin';
      if (a.startsWith('-') || a.startsWith('+')) continue;
      return a === '-' || a === '/dev/stdin';
    }
    return true;
  }
  const interp = interpreterName(name);
  if (interp === undefined) return false;
  const spec = INTERPRETERS[interp];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (codeCluster(interp, a) || spec.code.includes(a) || spec.module.includes(a) || spec.code.some((c) => c.length === 2 && a.startsWith(c) && a.length > 2 && !a.startsWith('--'))) return false;
    if (a === '-' || a === '/dev/stdin') return true;
    if (a === '--') return args[i + 1] === undefined || args[i + 1] === '-';
    if (a.startsWith('-')) {
      // Options that take a value: skip it.
      if (['-W', '-X', '-I', '-r', '--require', '-M', '--import', '--loader'].includes(a)) i += 1;
      continue;
    }
    return false; // a script file
  }
  return interp !== 'deno';
}

/** The code passed on the command line (`python -c CODE`, `perl -e CODE`, `node -e CODE`). */
export function inlineCode(words: Word[]): Word[] {
  const interp = interpreterName(words[0]?.text ?? '');
  if (interp === undefined) return [];
  const spec = INTERPRETERS[interp];
  const out: Word[] = [];
  const args = words.slice(1);
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i].text;
    if ((spec.code.includes(a) || codeCluster(interp, a)) && args[i + 1] !== undefined) {
      out.push(args[i + 1]);
      i += 1;
    } else if (spec.code.some((c) => c.length === 2 && a.startsWith(c) && a.length > 2)) {
      out.push({ ...args[i], text: a.slice(2) });
    } else if (interp === 'deno' && a === 'eval' && args[i + 1] !== undefined) {
      out.push(args[i + 1]);
      i += 1;
    } else if (!a.startsWith('-')) break;
  }
  return out;
}
