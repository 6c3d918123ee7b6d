/**
 * Hardline's decision for one command line: pre-scan (scan.ts), then the tree-sitter walk
 * (tree.ts) when the parser may see the input, and always the conservative linear reading
 * (fallback.ts) beside it — a command is refused when either reading finds a rule, so neither a
 * syntax error nor a grammar quirk is a way around the rules. Then every pipeline, stage by stage:
 * what reaches its stdin (here-docs, here-strings, `echo …|`, a download), what wrappers hide
 * (unwrap.ts), what scripts it runs (`sh -c`, `eval`, text fed to a shell, interpreter one-liners),
 * what xargs/parallel/find -exec compose, and the per-command rules (rules.ts).
 */
import path from 'node:path';
import { judgeCode } from './code-rules.js';
import { conservativeScript, withoutQuotes } from './fallback.js';
import { isLiteral, literalWord, type Cmd, type Feed, type Script, type Word } from './model.js';
import { cpuMs, parseShell, PARSE_BUDGET_MS, shellParserReady } from './parser.js';
import { inlineCode, interpreterName, isFetcherCommand, isShell, readsProgramFromStdin } from './programs.js';
import { MAX_NESTING, type HardlineRule } from './rule-names.js';
import { isPlainCommand, isRuleName, judgeRedirect, judgeWords, listsEveryProcess, literalOutputWords } from './rules.js';
import { scanStructure } from './scan.js';
import type { TargetContext } from './targets.js';
import { scriptFromTree } from './tree.js';
import { mayWrap, unwrapCommand, type Unwrapped } from './unwrap.js';
import { expandBraces } from './words.js';
import { programName } from './program-name.js';

export interface JudgeContext extends TargetContext {
  positional?: string[];
}

export interface Found {
  rule: HardlineRule;
  excerpt: string;
}

export interface Decision {
  /** CPU-time deadline (parser.ts cpuMs) past which no more text goes to the parser. */
  deadline: number;
  /** Verdicts of scripts already judged (both readers hand the same `sh -c` text over). */
  scripts?: Map<string, Array<{ cwd: string | undefined; positional: string | undefined; found: Found | null }>>;
  /** How each text was read, for `fermix sandbox explain --command` and the tests. */
  readers: Set<'tree' | 'scan' | 'scan_unquoted'>;
}

/**
 * Inputs past these go to the linear reader alone: tree-sitter's error recovery is super-linear on
 * some shapes, and past 32 KiB (here-docs writing files, generated scripts) its lexing costs more
 * than it adds — the linear reader decides the whole corpus on its own (corpus test).
 */
export const TREE_LIMITS = { tokens: 4096, depth: 24, pipes: 128, chars: 32 * 1024 };
/** Nesting no real command needs; refused outright. */
const MAX_STRUCTURE_DEPTH = 64;
const MAX_COMPOSED = 16;

export function judgeText(text: string, context: JudgeContext, depth: number, decision: Decision): Found | undefined {
  if (depth > MAX_NESTING) return { rule: 'too_deep', excerpt: text };
  if (depth === 0) return readAndJudge(text, context, depth, decision);
  decision.scripts ??= new Map();
  const positional = context.positional?.join('\u0000');
  const entries = decision.scripts.get(text) ?? [];
  const known = entries.find((e) => e.cwd === context.cwd && e.positional === positional);
  if (known !== undefined) return known.found ?? undefined;
  const found = readAndJudge(text, context, depth, decision);
  entries.push({ cwd: context.cwd, positional, found: found ?? null });
  decision.scripts.set(text, entries);
  return found;
}

function readAndJudge(text: string, context: JudgeContext, depth: number, decision: Decision): Found | undefined {
  const st = scanStructure(text);
  if (st.depth > MAX_STRUCTURE_DEPTH) return { rule: 'too_deep', excerpt: text };
  // One environment per reader: variables assigned while one reads must not leak into the other.
  const envFor = () => ({ home: context.home, positional: context.positional });
  const scripts: Script[] = [];
  const fitsTree = st.tokens <= TREE_LIMITS.tokens && st.depth <= TREE_LIMITS.depth && st.pipes <= TREE_LIMITS.pipes && st.text.length <= TREE_LIMITS.chars;
  if (fitsTree && shellParserReady()) {
    const remaining = decision.deadline - cpuMs();
    if (remaining > 1) {
      const outcome = parseShell(st.text, Math.min(PARSE_BUDGET_MS, remaining));
      if ('tree' in outcome) {
        try {
          if (!outcome.tree.rootNode.hasError) {
            scripts.push(scriptFromTree(st, outcome.tree.rootNode, envFor()));
            decision.readers.add('tree');
          }
        } finally {
          outcome.tree.delete();
        }
      }
    }
  }
  scripts.push(conservativeScript(st, envFor()));
  decision.readers.add('scan');
  if (!st.wellFormed) {
    scripts.push(conservativeScript(withoutQuotes(st.text), envFor()));
    decision.readers.add('scan_unquoted');
  }
  for (const script of scripts) {
    const found = judgeScript(script, context, depth, decision);
    if (found !== undefined) return found;
  }
  return undefined;
}

interface Flow {
  texts: string[];
  fetched: boolean;
  producer?: Cmd;
}

/** unwrapCommand, once per command. */
function unwrapOf(cmd: Cmd): Unwrapped {
  cmd.unwrapped ??= unwrapCommand(cmd.words);
  return cmd.unwrapped;
}

function judgeScript(script: Script, context: JudgeContext, depth: number, decision: Decision): Found | undefined {
  for (const fn of script.functions) if (fn.forksItself) return { rule: 'fork_bomb', excerpt: fn.excerpt };
  for (const loop of script.loops) if (loop.infinite && loop.spawns && !loop.waits) return { rule: 'spawn_loop', excerpt: loop.excerpt };
  let local = context;
  const seen: Seen = new Map();
  for (const pipeline of script.pipelines) {
    let flow: Flow | undefined;
    const stages = pipeline.stages;
    for (let i = 0; i < stages.length; i += 1) {
      const stage = stages[i];
      if (stage.plain !== true && !isPlainCommand(stage)) {
        const found = judgeCached(stage, local, depth, decision, flow, seen);
        // A download run by a later stage: show the pipeline, not only the interpreter.
        if (found !== undefined && found.rule === 'remote_script' && i > 0) {
          return { ...found, excerpt: stages.slice(0, i + 1).map((s) => s.excerpt.trim()).filter((e) => e !== '').join(' | ') };
        }
        if (found !== undefined) return found;
      }
      if (i < stages.length - 1) flow = outputOf(stage, flow);
    }
    if (stages.length === 1) {
      const first = stages[0].words[0]?.text;
      if (first === 'cd' || first === 'pushd' || (first !== undefined && mayWrap(first))) {
        const cwd = afterCd(unwrapOf(stages[0]).words, local);
        if (cwd !== local.cwd) local = { ...context, cwd };
      }
    }
  }
  return undefined;
}

/** Verdicts by working directory and command, for one reading of one script (never shared between readers). */
type Seen = Map<string, Map<string, Found | null>>;

/**
 * What a verdict depends on: the words and redirections as evaluated (not the source text: `$d`
 * is another word once `d=/` was read).
 */
function verdictKey(cmd: Cmd): string | undefined {
  let key = '';
  for (const w of cmd.words) {
    if (w.sources !== undefined) return undefined;
    key += `${w.text}\u0001${w.pattern ?? ''}\u0001${w.fetched ? 'F' : ''}${w.procSubst ? 'P' : ''}${w.dynamic ? 'D' : ''}\u0002`;
  }
  for (const r of cmd.redirects) key += `\u0003${r.op}\u0001${r.target.text}\u0001${r.target.pattern ?? ''}${r.target.fetched ? 'F' : ''}${r.target.procSubst ? 'P' : ''}`;
  return key;
}

/**
 * judgeCmd, remembered for commands that stand alone (no stdin from a pipe or here-doc, no
 * positional parameters): an input repeating one command thousands of times is judged once.
 */
function judgeCached(cmd: Cmd, context: JudgeContext, depth: number, decision: Decision, input: Flow | undefined, seen: Seen): Found | undefined {
  const key = input === undefined && cmd.feeds.length === 0 && context.positional === undefined ? verdictKey(cmd) : undefined;
  if (key === undefined) return judgeCmd(cmd, context, depth, decision, input);
  const cwd = context.cwd ?? '';
  let byText = seen.get(cwd);
  if (byText === undefined) {
    byText = new Map();
    seen.set(cwd, byText);
  }
  const known = byText.get(key);
  if (known !== undefined) return known ?? undefined;
  const found = judgeCmd(cmd, context, depth, decision, input);
  byText.set(key, found ?? null);
  return found;
}

function judgeCmd(cmd: Cmd, context: JudgeContext, depth: number, decision: Decision, input: Flow | undefined): Found | undefined {
  const hit = (rule: HardlineRule): Found => ({ rule, excerpt: cmd.excerpt.trim() });
  for (const r of cmd.redirects) {
    const rule = judgeRedirect(r.op, r.target);
    if (rule !== undefined) return hit(rule);
  }
  const u = unwrapOf(cmd);
  if (u.sudoStdin) return hit('sudo_stdin');
  for (const s of u.scripts) {
    if (s.word.fetched) return hit('remote_script');
    const inner = judgeText(s.word.text, { ...context, positional: s.positional }, depth + 1, decision);
    if (inner !== undefined) return inner;
  }
  const words = expandAll(u.words);
  if (words.length === 0) return undefined;
  if (words[0].fetched) return hit('remote_script');
  const name = programName(words[0].text);
  // The common case: a program no rule is about, run directly.
  if (u.xargs === undefined && u.parallel === undefined && !isRuleName(name) && !isShell(name) && interpreterName(name) === undefined && name !== 'source' && name !== '.') return undefined;
  if (isShell(name) || interpreterName(name) !== undefined || name === 'source' || name === '.') {
    const stdin = stdinOf(cmd, input);
    const operands = words.slice(1).filter((w) => !w.text.startsWith('-'));
    if (operands[0]?.procSubst && operands[0].fetched) return hit('remote_script');
    for (const code of inlineCode(words)) {
      if (code.fetched) return hit('remote_script');
      const found = judgeProgram(code.text, context, depth, decision);
      if (found !== undefined) return found;
    }
    if (readsProgramFromStdin(words)) {
      if (stdin.fetched) return hit('remote_script');
      for (const text of stdin.texts) {
        const found = isShell(name) ? judgeText(text, context, depth + 1, decision) : judgeProgram(text, context, depth, decision);
        if (found !== undefined) return found;
      }
    }
    if ((name === 'source' || name === '.') && operands[0]?.fetched) return hit('remote_script');
    if ((name === 'source' || name === '.') && /^\/(?:dev\/stdin|proc\/self\/fd\/0|dev\/fd\/0)$/.test(operands[0]?.text ?? '')) {
      if (stdin.fetched) return hit('remote_script');
      for (const text of stdin.texts) {
        const found = judgeText(text, context, depth + 1, decision);
        if (found !== undefined) return found;
      }
    }
  }

  const judgeInner = name === 'find' || u.xargs !== undefined || u.parallel !== undefined
    ? (inner: Word[]) => judgeCmd({ words: inner, redirects: [], feeds: [], excerpt: inner.map((w) => w.text).join(' ') }, context, depth + 1, decision, undefined)?.rule
    : undefined;

  if (judgeInner !== undefined && (u.xargs !== undefined || (u.parallel !== undefined && u.parallel.inputs === undefined))) {
    if (name === 'kill' && input?.producer !== undefined && listsEveryProcess([{ stages: [input.producer] }])) return hit('mass_kill');
    const fed = fedWords(stdinOf(cmd, input), input);
    const replace = u.xargs?.replace ?? (u.parallel !== undefined ? '{}' : undefined);
    for (const operand of fed.slice(0, MAX_COMPOSED)) {
      const composed = compose(words, operand, replace);
      const rule = judgeInner(composed);
      if (rule !== undefined) return hit(rule);
    }
  }
  if (judgeInner !== undefined && u.parallel?.inputs !== undefined) {
    for (const operand of u.parallel.inputs.slice(0, MAX_COMPOSED)) {
      const rule = judgeInner(compose(words, operand, '{}'));
      if (rule !== undefined) return hit(rule);
    }
  }
  if (name === 'kill' && words.slice(1).some((w) => w.sources !== undefined && listsEveryProcess(w.sources))) return hit('mass_kill');
  const rule = judgeWords(words, context, judgeInner);
  return rule === undefined ? undefined : hit(rule);
}

/** `python -c CODE` and friends; an embedded shell command (`os.system("…")`) is judged as shell. */
function judgeProgram(code: string, context: JudgeContext, depth: number, decision: Decision): Found | undefined {
  const found = judgeCode(code, context);
  if (found === undefined) return undefined;
  if ('shell' in found) return judgeText(found.shell, context, depth + 1, decision);
  return { rule: found.rule, excerpt: found.excerpt };
}

/** What a stage reads: its own here-docs/here-strings win over the pipe; `< <(curl …)` and `< /dev/tcp/…` are downloads. */
function stdinOf(cmd: Cmd, input: Flow | undefined): Flow {
  const fromNet = cmd.redirects.some((r) => r.op === '<' && ((r.target.procSubst && r.target.fetched) || /^\/dev\/(?:tcp|udp)\//.test(r.target.text)));
  if (fromNet) return { texts: [], fetched: true };
  // `sh < <(echo 'rm -rf /')`: what the process substitution prints.
  const fromProc = cmd.redirects.find((r) => r.op === '<' && r.target.procSubst && r.target.sources !== undefined);
  if (fromProc?.target.sources !== undefined) {
    const last = fromProc.target.sources[fromProc.target.sources.length - 1];
    let flow: Flow | undefined;
    for (const stage of last?.stages ?? []) flow = outputOf(stage, flow);
    if (flow !== undefined) return { texts: flow.texts, fetched: flow.fetched };
  }
  if (cmd.feeds.length > 0) return { texts: cmd.feeds.map((f: Feed) => f.text), fetched: cmd.feeds.some((f) => f.fetched) };
  return input ?? { texts: [], fetched: false };
}

/** What a stage writes to the next one. A download taints everything downstream of it. */
const PASSING_TEXT = new Set(['echo', 'printf', 'cat', 'tee', 'dd', 'pv', 'stdbuf', 'base64', 'rev']);

function outputOf(cmd: Cmd, input: Flow | undefined): Flow {
  // A fetcher, or any stage holding a download (`echo "$(curl …)"`, `cat <(curl …)`), writes what the network sent.
  if (cmd.opaqueOutputFetched === true || isFetcherCommand(unwrapOf(cmd).words, true) || cmd.words.some((w) => w.fetched)) return { texts: [], fetched: true, producer: cmd };
  const words = unwrapOf(cmd).words;
  const name = programName(words[0]?.text ?? '');
  if (!PASSING_TEXT.has(name) && cmd.feeds.length === 0 && cmd.redirects.length === 0) return { texts: [], fetched: input?.fetched ?? false, producer: cmd };
  const stdin = stdinOf(cmd, input);
  const args = words.slice(1);
  if ((name === 'echo' || name === 'printf') && args.every(isLiteral)) return { texts: [printed(name, args)], fetched: false, producer: cmd };
  if (name === 'cat' || name === 'tee' || name === 'dd' || name === 'pv' || name === 'stdbuf') {
    const files = args.filter((w) => !w.text.startsWith('-'));
    if (name !== 'cat' || files.length === 0 || files.every((w) => w.text === '-')) return { ...stdin, producer: cmd };
  }
  if (name === 'base64' && args.some((w) => w.text === '-d' || w.text === '--decode' || w.text === '-D')) {
    return { texts: stdin.texts.map((t) => Buffer.from(t.replace(/\s+/g, ''), 'base64').toString('utf8')), fetched: stdin.fetched, producer: cmd };
  }
  if (name === 'rev') return { texts: stdin.texts.map((t) => t.split('\n').map((l) => [...l].reverse().join('')).join('\n')), fetched: stdin.fetched, producer: cmd };
  return { texts: [], fetched: stdin.fetched, producer: cmd };
}

/** The text `echo`/`printf` print: escapes processed, `%s` filled in. */
function printed(name: string, args: Word[]): string {
  const escapes = (s: string) => s.replace(/\\(n|t|\\|x[0-9A-Fa-f]{1,2}|0[0-7]{0,3})/g, (_, e: string) => (e === 'n' ? '\n' : e === 't' ? '\t' : e === '\\' ? '\\' : e[0] === 'x' ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : String.fromCharCode(Number.parseInt(e.slice(1) || '0', 8))));
  if (name === 'echo') {
    const rest = args.filter((w, k) => !(k === 0 && /^-[neE]+$/.test(w.text)));
    return escapes(rest.map((w) => w.text).join(' '));
  }
  const [format, ...values] = args.map((w) => w.text);
  if (format === undefined) return '';
  let k = 0;
  const filled = escapes(format).replace(/%[-+ #0-9.]{0,8}[sbdqc%]/g, (spec) => (spec === '%%' ? '%' : values[k++] ?? ''));
  return k < values.length ? `${filled} ${values.slice(k).join(' ')}` : filled;
}

/** Operands xargs/parallel read from stdin: whitespace-separated words, or what `find ROOT` lists. */
function fedWords(stdin: Flow, input: Flow | undefined): Word[] {
  const fromText = stdin.texts.join('\n').split(/\s+/).filter((t) => t !== '').slice(0, MAX_COMPOSED).map((t) => literalWord(t.replace(/^['"]|['"]$/g, '')));
  if (fromText.length > 0) return fromText;
  if (input?.producer !== undefined) {
    const listed = literalOutputWords(unwrapOf(input.producer).words);
    if (listed !== undefined) return listed;
  }
  return [];
}

function compose(words: Word[], operand: Word, replace: string | undefined): Word[] {
  if (replace !== undefined && replace !== '' && words.some((w) => w.text.includes(replace))) {
    return words.map((w) => (w.text.includes(replace) ? { ...w, text: w.text.replaceAll(replace, operand.text), pattern: operand.pattern } : w));
  }
  return [...words, operand];
}

/** Bash brace expansion over a command's words: `{rm,-rf,/}` is `rm -rf /`. */
function expandAll(words: Word[]): Word[] {
  if (!words.some((w) => w.pattern?.includes('{'))) return words;
  const out: Word[] = [];
  for (const w of words) {
    const expanded = w.pattern?.includes('{') ? expandBraces(w) : undefined;
    if (expanded !== undefined && out.length + expanded.length <= 256) out.push(...expanded);
    else out.push(w);
  }
  return out;
}

/** Follows `cd`/`pushd` so `cd / && rm -rf *` is judged in `/`; an unknown destination stops relative judging. */
function afterCd(inner: Word[], context: JudgeContext): string | undefined {
  const name = inner[0]?.text;
  if (name !== 'cd' && name !== 'pushd') return context.cwd;
  const target = inner.slice(1).find((w) => !/^-[LPe@]+$/.test(w.text) && !/^[+-]\d+$/.test(w.text));
  if (target === undefined || target.text === context.home) return name === 'cd' ? context.home : context.cwd;
  if (target.text === '-' || !isLiteral(target)) return undefined;
  const t = target.text;
  if (path.posix.isAbsolute(t)) return path.posix.normalize(t);
  return context.cwd === undefined ? undefined : path.posix.join(context.cwd, t);
}

