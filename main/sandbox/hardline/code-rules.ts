/**
 * Literal interpreter programs (`python -c`, `perl -e`, `node -e`, `ruby -e`, a here-doc fed to
 * `python3 -`): the few catastrophic one-liners worth refusing — a recursive delete of a protected
 * root (`shutil.rmtree('/')`, `fs.rmSync('/', {recursive: true})`, `FileUtils.rm_rf('/')`), fork
 * loops (`while True: os.fork()`, `fork while fork`, `loop { fork }`), killing every process, writing
 * to a disk device, and shell commands they run (`os.system("rm -rf /")`, `` `rm -rf ~` ``), which
 * are judged as shell. Every pattern starts at a literal keyword and has bounded repetition, so a
 * scan is linear in the code's length. Code computed at run time is out of reach: the jail's job.
 */
import type { TargetContext } from './targets.js';
import { isCatastrophicTarget } from './targets.js';

export type CodeHit = { rule: 'recursive_delete' | 'fork_bomb' | 'mass_kill' | 'disk_write' | 'sysrq'; excerpt: string } | { shell: string; excerpt: string };

/** How far (characters) from an endless-loop header a fork call still counts as its body. */
const LOOP_BODY = 400;
const ARG_WINDOW = 240;

const LOOP_HEADER = /\b(?:while\s{0,8}\(?\s{0,8}(?:True|true|TRUE|1|!0|:)\s{0,8}\)?|for\s{0,8}\(\s{0,8};\s{0,8};\s{0,8}\)|loop\s{0,8}(?:\{|do\b)|until\s{0,8}\(?\s{0,8}(?:false|0)\s{0,8}\)?|itertools\.count\(|iter\(int,\s{0,4}1\))/g;
/** A real fork: the child runs the same loop, so the count doubles each turn. */
const FORK_CALL = /\b(?:os\.fork|fork|forkpty|pcntl_fork)\b(?!\s{0,8}=)/g;
/** A spawn in an endless loop that never waits: processes pile up without end. */
const SPAWN_CALL = /\b(?:Popen|spawn|posix_spawn|Process\.spawn|os\.spawn[lv]p?e?)\s{0,8}\(/g;
const WAITS = /\b(?:wait|waitpid|communicate|join)\s{0,4}\(|\.run\(|\bsleep\b/g;
const FORK_WHILE_FORK = /\bfork\s{0,8}(?:\(\s{0,8}\))?\s{0,8}(?:while|until|unless)\s{1,8}(?:fork|1|!0)\b|\b1\s{1,8}while\s{1,8}fork\b|\bwhile\s{0,8}\(\s{0,8}fork\b/;

const DELETE_CALL = /\b(?:shutil\.rmtree|rmtree|remove_tree|rmSync|rmdirSync|rimraf(?:Sync)?|removeSync|fs\.rm|fs\.promises\.rm|rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|deleteRecursively|os\.RemoveAll)(?![\w.])\s{0,8}\(?/g;
const NEEDS_RECURSIVE = new Set(['rmSync', 'rmdirSync', 'fs.rm', 'fs.promises.rm']);

const SHELL_CALL = /\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|system|execSync|execFileSync|exec|spawnSync|spawn|shell_exec|passthru|popen|proc_open|IO\.popen|Open3\.\w{1,20}|Kernel\.system|Runtime\.getRuntime\(\)\.exec)(?![\w.])\s{0,8}\(?/g;

const MASS_KILL = /\b(?:os\.kill|os\.killpg|process\.kill|Process\.kill|posix_kill|kill)\s{0,8}\(?\s{0,8}(?:-1\b|['"]?(?:KILL|TERM|9|15|SIGKILL|SIGTERM|signal\.SIGKILL|signal\.SIGTERM)['"]?\s{0,8},\s{0,8}-1\b)/;

const BLOCK_DEVICE_LITERAL = /\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|mapper\/|disk\/by-|block\/|dm-\d|md\d)/g;
const WRITE_MODE = /['"](?:w|wb|a|ab|r\+|rb\+|r\+b|w\+|>|>>|\+<)['"]|writeFile|createWriteStream|File\.write|O_WRONLY|O_RDWR|IO\.write|\.write_bytes|\.write_text/;

export function judgeCode(code: string, context: TargetContext): CodeHit | undefined {
  const text = code.length > 256 * 1024 ? code.slice(0, 256 * 1024) : code;
  if (FORK_WHILE_FORK.test(text)) return { rule: 'fork_bomb', excerpt: excerptAt(text, text.search(FORK_WHILE_FORK)) };
  const forkBomb = forkInEndlessLoop(text);
  if (forkBomb !== undefined) return { rule: 'fork_bomb', excerpt: excerptAt(text, forkBomb) };
  if (MASS_KILL.test(text)) return { rule: 'mass_kill', excerpt: excerptAt(text, text.search(MASS_KILL)) };

  for (const m of text.matchAll(DELETE_CALL)) {
    const name = m[0].replace(/[\s(]+$/, '');
    const args = text.slice(m.index + m[0].length, m.index + m[0].length + ARG_WINDOW);
    if (NEEDS_RECURSIVE.has(name) && !/recursive\s{0,4}:\s{0,4}true|recursive\s{0,4}=\s{0,4}True/.test(args)) continue;
    const target = firstArgumentPath(args, context.home);
    if (target !== undefined && isCatastrophicTarget(target, { ...context, cwd: context.cwd })) return { rule: 'recursive_delete', excerpt: excerptAt(text, m.index) };
  }

  for (const m of text.matchAll(BLOCK_DEVICE_LITERAL)) {
    const around = text.slice(Math.max(0, m.index - 80), m.index + 80);
    if (WRITE_MODE.test(around)) return { rule: 'disk_write', excerpt: excerptAt(text, m.index) };
  }
  const sysrq = text.indexOf('/proc/sysrq-trigger');
  if (sysrq !== -1) return { rule: 'sysrq', excerpt: excerptAt(text, sysrq) };

  for (const m of text.matchAll(SHELL_CALL)) {
    const args = text.slice(m.index + m[0].length, m.index + m[0].length + 2000);
    const command = shellStringOf(args);
    if (command !== undefined && command.trim() !== '') return { shell: command, excerpt: excerptAt(text, m.index) };
  }
  // Perl and Ruby backticks and qx//, %x(): a shell command.
  for (const command of backtickCommands(text)) return { shell: command, excerpt: command.slice(0, 300) };
  return undefined;
}

function forkInEndlessLoop(text: string): number | undefined {
  const forks: number[] = [];
  for (const m of text.matchAll(FORK_CALL)) forks.push(m.index);
  const spawns: number[] = [];
  for (const m of text.matchAll(SPAWN_CALL)) spawns.push(m.index);
  if (forks.length === 0 && spawns.length === 0) return undefined;
  const waits: number[] = [];
  if (spawns.length > 0) for (const m of text.matchAll(WAITS)) waits.push(m.index);
  let k = 0;
  let j = 0;
  let w = 0;
  for (const m of text.matchAll(LOOP_HEADER)) {
    while (k < forks.length && forks[k] < m.index) k += 1;
    // A generator header (`[os.fork() for _ in iter(int, 1)]`) has its body before it.
    if ((m[0].startsWith('iter') || m[0].startsWith('itertools')) && k > 0 && m.index - forks[k - 1] <= LOOP_BODY) return m.index;
    if (k < forks.length && forks[k] - m.index <= LOOP_BODY) return m.index;
    while (j < spawns.length && spawns[j] < m.index) j += 1;
    while (w < waits.length && waits[w] < m.index) w += 1;
    const waitsInBody = w < waits.length && waits[w] - m.index <= LOOP_BODY + 200;
    if (j < spawns.length && spawns[j] - m.index <= LOOP_BODY && !waitsInBody) return m.index;
  }
  return undefined;
}

function excerptAt(text: string, index: number): string {
  return text.slice(Math.max(0, index), Math.max(0, index) + 200);
}

/** The path the first argument names: a string literal, `~`, or a spelled-out home folder. */
function firstArgumentPath(args: string, home: string): string | undefined {
  const a = args.trimStart();
  const lit = stringLiteralAt(a, 0);
  if (lit !== undefined) {
    const rest = a.slice(lit.end).trimStart();
    // `'/' + x`, `"/" .. name`: a computed path, not the literal.
    if (/^(?:\+|\.\.?|\/|%|\*)/.test(rest) && !rest.startsWith(',') && !rest.startsWith(')')) return undefined;
    return lit.value.replace(/^~(?=\/|$)/, home);
  }
  const homeForms = /^(?:os\.path\.expanduser\(\s{0,4}['"]~\/?['"]\s{0,4}\)|(?:pathlib\.)?Path\.home\(\)|Path\(\s{0,4}['"]~['"]\s{0,4}\)\.expanduser\(\)|os\.environ\[\s{0,4}['"]HOME['"]\s{0,4}\]|os\.getenv\(\s{0,4}['"]HOME['"]\s{0,4}\)|os\.homedir\(\)|require\(['"](?:node:)?os['"]\)\.homedir\(\)|process\.env\.HOME|process\.env\[['"]HOME['"]\]|Dir\.home|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|\$ENV\{['"]HOME['"]\})/;
  if (homeForms.test(a)) return home;
  const pathCall = /^(?:pathlib\.)?(?:Path|PurePath|PosixPath)\(\s{0,4}/.exec(a);
  if (pathCall !== null) {
    const inner = stringLiteralAt(a, pathCall[0].length);
    if (inner !== undefined) return inner.value.replace(/^~(?=\/|$)/, home);
  }
  return undefined;
}

/** A '…' or "…" literal starting at `at`, with backslash escapes. */
function stringLiteralAt(s: string, at: number): { value: string; end: number } | undefined {
  let q = s[at];
  let start = at;
  if ((q === 'r' || q === 'b' || q === 'f' || q === 'u') && (s[at + 1] === "'" || s[at + 1] === '"')) {
    start = at + 1;
    q = s[start];
  }
  if (q !== "'" && q !== '"' && q !== '`') return undefined;
  let value = '';
  for (let i = start + 1; i < s.length; i += 1) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      const e = s[i + 1];
      value += e === 'n' ? '\n' : e === 't' ? '\t' : e;
      i += 1;
    } else if (c === q) return { value, end: i + 1 };
    else value += c;
  }
  return undefined;
}

/** `("rm -rf /", shell=True)` → the string; `(['rm', '-rf', '/'])` / `('rm', '-rf', '/')` → joined. */
function shellStringOf(args: string): string | undefined {
  let a = args.trimStart();
  let list = false;
  if (a.startsWith('[') || a.startsWith('%w[') || a.startsWith('qw(')) {
    list = true;
    a = a.slice(a.indexOf(a.startsWith('[') ? '[' : a[2]) + 1);
  }
  const parts: string[] = [];
  let i = 0;
  for (let guard = 0; guard < 64; guard += 1) {
    while (i < a.length && (a[i] === ' ' || a[i] === '\t' || a[i] === '\n')) i += 1;
    const lit = stringLiteralAt(a, i);
    if (lit === undefined) break;
    parts.push(lit.value);
    i = lit.end;
    while (i < a.length && (a[i] === ' ' || a[i] === '\t' || a[i] === '\n')) i += 1;
    if (a[i] !== ',') break;
    i += 1;
    if (!list && parts.length === 1) {
      // `system("rm", "-rf", "/")` (Perl/Ruby list form) continues; `spawn('sh', ['-c', …])` goes on into
      // its argument list; `run("…", shell=True)` stops at a keyword.
      while (i < a.length && (a[i] === ' ' || a[i] === '\t' || a[i] === '\n')) i += 1;
      if (a[i] === '[') {
        list = true;
        i += 1;
        continue;
      }
      if (a[i] !== "'" && a[i] !== '"') break;
    }
  }
  if (parts.length === 0) return undefined;
  return parts.map((p) => (parts.length > 1 && /[\s'"]/.test(p) ? `'${p.replace(/'/g, "'\\''")}'` : p)).join(' ');
}

function backtickCommands(text: string): string[] {
  const out: string[] = [];
  const re = /`([^`]{1,4000})`|\bqx\s{0,4}([({[/|!])/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) out.push(m[1]);
    else {
      const open = m[2];
      const closer = ({ '(': ')', '{': '}', '[': ']' } as Record<string, string>)[open] ?? open;
      const end = text.indexOf(closer, m.index + m[0].length);
      if (end !== -1) out.push(text.slice(m.index + m[0].length, end));
    }
    if (out.length >= 16) break;
  }
  const percentX = /%x\(([^)]{1,4000})\)/g;
  for (const m of text.matchAll(percentX)) {
    out.push(m[1]);
    if (out.length >= 32) break;
  }
  return out;
}
