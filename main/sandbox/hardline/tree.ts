/**
 * Walks a tree-sitter-bash syntax tree into the hardline model (model.ts): every simple command of
 * every pipeline — also inside `$( )`, backticks, `<( )`, here-doc bodies, `if`/`case`/loop bodies,
 * subshells, brace groups and function bodies — with its words after quote removal (words.ts reads
 * them from the source text, so quoting follows sh, not the grammar), its redirections and the
 * here-docs and here-strings it reads. Loops remember whether they are endless and spawn in the
 * background; functions whether they fork themselves. The recursion is bounded: the pre-scan only
 * lets shallow inputs reach the parser.
 */
import type { SyntaxNode } from './parser.js';
import type { Structure } from './scan.js';
import { emptyScript, type Cmd, type Feed, type FunctionDef, type Loop, type Redirect, type Script, type Word } from './model.js';
import { assignVariable, evaluateWord, heredocText, type WordEnv } from './words.js';
import { isFetcherCommand } from './programs.js';
import { programName } from './program-name.js';

const STATEMENT_SEPARATORS = new Set([';', '&', '\n', ';;', ';&', ';;&', '&&', '||', '|', '|&']);

interface State {
  st: Structure;
  env: WordEnv;
  script: Script;
  loops: Loop[];
  functions: FunctionDef[];
  substDepth: number;
}

export function scriptFromTree(st: Structure, root: SyntaxNode, env: WordEnv): Script {
  const state: State = { st, env, script: emptyScript(), loops: [], functions: [], substDepth: 0 };
  statements(state, root);
  return state.script;
}

/** The statements among `node`'s children, each with whether a `&` follows it. */
function statements(state: State, node: SyntaxNode): void {
  const children = kids(node);
  for (let i = 0; i < children.length; i += 1) {
    const child = children[i];
    if (!child.isNamed || child.type === 'comment') continue;
    const background = children[i + 1]?.type === '&';
    statement(state, child, background);
  }
}

function statement(state: State, node: SyntaxNode, background: boolean): void {
  if (background) for (const loop of state.loops) loop.spawns = true;
  switch (node.type) {
    case 'command':
      pipeline(state, [node], background);
      return;
    case 'pipeline':
      pipeline(state, named(node).filter((c) => c.type !== 'comment'), background);
      return;
    case 'redirected_statement':
      redirected(state, node, background);
      return;
    case 'while_statement':
    case 'for_statement':
    case 'c_style_for_statement':
    case 'select_statement':
      loop(state, node);
      return;
    case 'function_definition': {
      const name = node.childForFieldName('name');
      const def: FunctionDef = { name: name === null ? '' : wordText(state, name), forksItself: false, excerpt: excerptOf(state, node) };
      state.functions.push(def);
      const body = node.childForFieldName('body');
      if (body !== null) statement(state, body, false);
      state.functions.pop();
      state.script.functions.push(def);
      return;
    }
    case 'variable_assignment':
      nestedIn(state, node);
      recordAssignment(state, node);
      return;
    case 'variable_assignments':
    case 'declaration_command':
    case 'unset_command':
    case 'test_command':
    case 'word':
    case 'string':
    case 'concatenation':
    case 'command_substitution':
    case 'process_substitution':
    case 'expansion':
    case 'simple_expansion':
    case 'arithmetic_expansion':
      nestedIn(state, node);
      return;
    case 'comment':
    case 'heredoc_body':
      return;
    default:
      // program, list, subshell, compound_statement, do_group, if/elif/else, case, negated_command, ERROR…
      for (const child of named(node)) {
        if (child.type === 'comment') continue;
        if (isStatementNode(child)) statement(state, child, background || nextIsAmpersand(node, child));
        else nestedIn(state, child);
      }
  }
}

function nextIsAmpersand(parent: SyntaxNode, child: SyntaxNode): boolean {
  const next = child.nextSibling;
  return next !== null && next.type === '&' && next.parent?.id === parent.id;
}

const NON_STATEMENTS = new Set([
  'word', 'string', 'raw_string', 'ansi_c_string', 'concatenation', 'simple_expansion', 'expansion', 'number',
  'variable_name', 'case_item', 'heredoc_body', 'heredoc_start', 'heredoc_end', 'file_redirect', 'heredoc_redirect',
  'herestring_redirect', 'command_name', 'extglob_pattern', 'regex', 'translated_string', 'arithmetic_expansion',
]);

function isStatementNode(node: SyntaxNode): boolean {
  if (node.type === 'case_item') return true;
  return !NON_STATEMENTS.has(node.type);
}

function loop(state: State, node: SyntaxNode): void {
  const record: Loop = { infinite: isInfinite(state, node), spawns: false, waits: false, excerpt: excerptOf(state, node) };
  state.loops.push(record);
  for (const child of named(node)) {
    if (child.type === 'do_group' || child.type === 'compound_statement') statements(state, child);
    else if (isStatementNode(child) && child.type !== 'variable_name') statement(state, child, false);
    else nestedIn(state, child);
  }
  state.loops.pop();
  state.script.loops.push(record);
}

const ENDLESS = new Set(['true', ':', '[ 1 ]', 'test 1', '((1))', '(( 1 ))', '[[ 1 ]]', '/bin/true', '/usr/bin/true', 'true;']);

function isInfinite(state: State, node: SyntaxNode): boolean {
  if (node.type === 'c_style_for_statement') return node.childForFieldName('condition') === null;
  if (node.type !== 'while_statement') return false;
  const until = node.child(0)?.type === 'until';
  const condition = nonNull(node.childrenForFieldName('condition')).filter((c) => c.isNamed);
  if (condition.length !== 1) return false;
  const text = excerptOf(state, condition[0]).trim().replace(/\s+/g, ' ');
  return until ? text === 'false' || text === '/bin/false' : ENDLESS.has(text);
}

function redirected(state: State, node: SyntaxNode, background: boolean): void {
  const body = node.childForFieldName('body');
  const redirects: Redirect[] = [];
  const feeds: Feed[] = [];
  const extraWords: Word[] = [];
  const continuations: Array<{ op: string; node: SyntaxNode }> = [];
  for (const child of named(node)) {
    if (child.id === body?.id) continue;
    redirect(state, child, redirects, feeds, extraWords, continuations);
  }
  let stages: SyntaxNode[] = [];
  if (body === null) stages = [];
  else if (body.type === 'command') stages = [body];
  else if (body.type === 'pipeline') stages = named(body).filter((c) => c.type !== 'comment');
  else {
    statement(state, body, background);
    // Redirections of a compound command still write where they write.
    if (redirects.length > 0 || feeds.length > 0) state.script.pipelines.push({ stages: [{ words: [], redirects, feeds, excerpt: excerptOf(state, node) }] });
    for (const c of continuations) statement(state, c.node, false);
    return;
  }
  // The refusal message shows the redirection too (`echo b > /proc/sysrq-trigger`, not `echo b`).
  const redirectText = named(node).filter((c) => c.id !== body?.id && (c.type === 'file_redirect' || c.type === 'herestring_redirect')).map((c) => excerptOf(state, c)).join(' ');
  const pipe = continuations.find((c) => c.op === '|' || c.op === '|&');
  if (pipe !== undefined) {
    const more = pipe.node.type === 'pipeline' ? named(pipe.node) : [pipe.node];
    pipeline(state, [...stages, ...more.filter((c) => c.type !== 'comment')], background, { index: stages.length - 1, redirects, feeds, extraWords, redirectText });
  } else {
    pipeline(state, stages, background, { index: stages.length - 1, redirects, feeds, extraWords, redirectText });
  }
  for (const c of continuations) if (c !== pipe) statement(state, c.node, false);
}

function redirect(state: State, node: SyntaxNode, redirects: Redirect[], feeds: Feed[], extraWords: Word[], continuations: Array<{ op: string; node: SyntaxNode }>): void {
  if (node.type === 'file_redirect') {
    const op = kids(node).find((c) => !c.isNamed)?.type ?? '>';
    const destinations = nonNull(node.childrenForFieldName('destination'));
    destinations.forEach((d, k) => {
      const w = word(state, d);
      if (k === 0) redirects.push({ op, target: w });
      else extraWords.push(w); // `cmd 2>/dev/null arg`: the grammar hangs `arg` on the redirect
    });
    return;
  }
  if (node.type === 'herestring_redirect') {
    const target = named(node).find((c) => c.type !== 'comment');
    if (target !== undefined) {
      const w = word(state, target);
      feeds.push({ text: w.text, fetched: w.fetched });
    }
    return;
  }
  if (node.type === 'heredoc_redirect') {
    const doc = state.st.heredocs.get(node.startIndex);
    const bodyNode = named(node).find((c) => c.type === 'heredoc_body');
    let fetched = false;
    if (bodyNode !== undefined) fetched = nestedIn(state, bodyNode);
    if (doc !== undefined) {
      const raw = state.st.text.slice(doc.bodyStart, doc.bodyEnd);
      const text = doc.quoted ? raw : heredocText(raw, state.env);
      feeds.push({ text, fetched });
    } else if (bodyNode !== undefined) {
      feeds.push({ text: state.st.text.slice(bodyNode.startIndex, bodyNode.endIndex), fetched });
    }
    let op = '';
    for (const child of kids(node)) {
      if (!child.isNamed && STATEMENT_SEPARATORS.has(child.type)) op = child.type;
      else if (child.isNamed && !['heredoc_start', 'heredoc_body', 'heredoc_end', 'comment'].includes(child.type)) continuations.push({ op: op || ';', node: child });
    }
    return;
  }
  // Anything else hanging on a redirected statement: judge what it runs.
  if (isStatementNode(node)) continuations.push({ op: ';', node });
  else nestedIn(state, node);
}

interface StageExtras {
  index: number;
  redirects: Redirect[];
  feeds: Feed[];
  extraWords: Word[];
  redirectText?: string;
}

function pipeline(state: State, nodes: SyntaxNode[], background: boolean, extras?: StageExtras): void {
  const stages: Cmd[] = [];
  nodes.forEach((node, index) => {
    const cmd = stage(state, node, nodes.length > 1 || background);
    if (extras !== undefined && index === extras.index) {
      cmd.redirects.push(...extras.redirects);
      cmd.feeds.push(...extras.feeds);
      cmd.words.push(...extras.extraWords);
      if (extras.redirectText) cmd.excerpt = `${cmd.excerpt} ${extras.redirectText}`.slice(0, 600);
    }
    stages.push(cmd);
  });
  if (stages.length > 0) state.script.pipelines.push({ stages });
}

/** One pipeline stage as a Cmd; a compound stage (`{ …; } | sh`) is walked and stands as a command without words. */
function stage(state: State, node: SyntaxNode, forking: boolean): Cmd {
  if (node.type === 'redirected_statement') {
    const body = node.childForFieldName('body');
    if (body?.type === 'command') {
      const cmd = command(state, body, forking);
      const extraWords: Word[] = [];
      const continuations: Array<{ op: string; node: SyntaxNode }> = [];
      for (const child of named(node)) if (child.id !== body.id) redirect(state, child, cmd.redirects, cmd.feeds, extraWords, continuations);
      cmd.words.push(...extraWords);
      for (const c of continuations) statement(state, c.node, false);
      return cmd;
    }
  }
  if (node.type === 'command') return command(state, node, forking);
  const before = state.script.pipelines.length;
  statement(state, node, false);
  const inner = state.script.pipelines.slice(before).flatMap((p) => p.stages);
  const fetches = inner.some((c) => isFetcherCommand(c.words));
  return { words: [], redirects: [], feeds: fetches ? [{ text: '', fetched: true }] : [], excerpt: excerptOf(state, node), opaqueOutputFetched: fetches };
}

function command(state: State, node: SyntaxNode, forking: boolean): Cmd {
  const words: Word[] = [];
  const redirects: Redirect[] = [];
  const feeds: Feed[] = [];
  const extraWords: Word[] = [];
  const continuations: Array<{ op: string; node: SyntaxNode }> = [];
  for (const child of named(node)) {
    if (child.type === 'variable_assignment') nestedIn(state, child);
    else if (child.type === 'command_name') {
      const inner = named(child)[0] ?? child;
      words.push(word(state, inner));
    } else if (child.type === 'file_redirect' || child.type === 'herestring_redirect' || child.type === 'heredoc_redirect') {
      redirect(state, child, redirects, feeds, extraWords, continuations);
    } else if (child.type !== 'comment') words.push(word(state, child));
  }
  words.push(...extraWords);
  const cmd: Cmd = { words, redirects, feeds, excerpt: excerptOf(state, node) };
  const name = words[0] === undefined ? '' : programName(words[0].text);
  if (name === 'wait') for (const loop of state.loops) loop.waits = true;
  for (const fn of state.functions) if (fn.name !== '' && name === fn.name && (forking || state.substDepth > 0)) fn.forksItself = true;
  for (const c of continuations) statement(state, c.node, false);
  return cmd;
}

/** A word node: its value from the source text, and the commands of its substitutions. */
function word(state: State, node: SyntaxNode): Word {
  const { word: w, nested } = evaluateWord(state.st.text, state.st.close, node.startIndex, node.endIndex, state.env);
  // No `$( )`, backtick or `<( )` in the word: nothing below it to walk.
  if (nested.length === 0) return w;
  const before = state.script.pipelines.length;
  if (nestedIn(state, node)) w.fetched = true;
  if (state.script.pipelines.length > before) w.sources = state.script.pipelines.slice(before);
  return w;
}

function wordText(state: State, node: SyntaxNode): string {
  return evaluateWord(state.st.text, state.st.close, node.startIndex, node.endIndex, state.env).word.text;
}

/**
 * Walks the command and process substitutions anywhere under `node` (not its statements, which the
 * caller walks). Returns whether one of them runs a network fetcher.
 */
function nestedIn(state: State, node: SyntaxNode): boolean {
  let fetched = false;
  const visit = (n: SyntaxNode) => {
    if (n.type === 'command_substitution' || n.type === 'process_substitution') {
      const before = state.script.pipelines.length;
      state.substDepth += 1;
      statements(state, n);
      state.substDepth -= 1;
      if (state.script.pipelines.slice(before).some((p) => p.stages.some((c) => isFetcherCommand(c.words) || c.opaqueOutputFetched === true))) fetched = true;
      return;
    }
    for (const child of named(n)) visit(child);
  };
  visit(node);
  return fetched;
}

function excerptOf(state: State, node: SyntaxNode): string {
  const end = Math.min(node.endIndex, node.startIndex + 600);
  return state.st.text.slice(node.startIndex, end);
}

/** `d=/` on its own: later words see `$d` as `/`. */
function recordAssignment(state: State, node: SyntaxNode): void {
  const name = node.childForFieldName('name');
  if (name === null) return;
  const value = node.childForFieldName('value');
  assignVariable(state.env, state.st.text.slice(name.startIndex, name.endIndex), value === null ? { text: '', dynamic: false, fetched: false, procSubst: false } : evaluateWord(state.st.text, state.st.close, value.startIndex, value.endIndex, state.env).word);
}

function nonNull(list: Array<SyntaxNode | null>): SyntaxNode[] {
  return list.filter((n): n is SyntaxNode => n !== null);
}

function kids(node: SyntaxNode): SyntaxNode[] {
  return nonNull(node.children);
}

function named(node: SyntaxNode): SyntaxNode[] {
  return nonNull(node.namedChildren);
}
