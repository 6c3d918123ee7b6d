/**
 * The conservative linear reader, used when the tree-sitter parser cannot be trusted with a
 * command: it has a syntax error (a deliberately broken trailing quote must not hide
 * `rm -rf /` on the line before it), it is too big or too deeply nested for the parser's budget, or
 * the parser is not loaded. It splits the pre-scanned text (scan.ts) into simple commands the way
 * sh does — quotes, `$( )`, backticks, `<( )`, here-docs and here-strings, `;`/`&&`/`||`/`|`/`&`,
 * redirections, subshells — and tracks `while`/`until`/`for` loops and function definitions well
 * enough for the spawn-loop and fork-bomb rules. One pass per nesting level over disjoint ranges:
 * linear. For broken input the judge also reads the text a second time with every quote removed,
 * so a string whose end the shell would see elsewhere is judged as code too.
 */
import { emptyScript, type Cmd, type Feed, type FunctionDef, type Loop, type Pipeline, type Redirect, type Script, type Word } from './model.js';
import { isFetcherCommand } from './programs.js';
import { isInertCommand } from './rules.js';
import { scanStructure, type Structure } from './scan.js';
import { assignVariable, evaluateWord, heredocText, type WordEnv } from './words.js';
import { programName } from './program-name.js';

/** Characters that neither end a word nor start a quote or an expansion. */
const WORD_CHAR = new Uint8Array(128).fill(1);
for (const c of ' \t\n;&|()<>\\\'"`$') WORD_CHAR[c.charCodeAt(0)] = 0;

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Shared empty lists (most commands have no redirection); replaced by a fresh array on first push. */
const NONE_REDIRECTS: Redirect[] = [];
const NONE_FEEDS: Feed[] = [];

/** Stands for any run of pipeline stages no rule is about: text passes through it unknown, a download's taint passes on. */
const INERT_STAGE: Cmd = { words: [], redirects: NONE_REDIRECTS, feeds: NONE_FEEDS, excerpt: '' };

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'in', '{', '}', '!', 'do', 'done', 'while', 'until', 'for', 'select', 'function', 'time', 'coproc']);
const ENDLESS = new Set(['true', ':', '/bin/true', '/usr/bin/true']);

interface OpenLoop {
  loop: Loop;
  phase: 'cond' | 'body';
  until: boolean;
  condition: string[];
  braceDepth: number;
}

interface OpenFn {
  def: FunctionDef;
  braceDepth: number;
}

export function conservativeScript(st: Structure, env: WordEnv): Script {
  const script = emptyScript();
  const loops: OpenLoop[] = [];
  const fns: OpenFn[] = [];
  let braceDepth = 0;
  let nestedDepth = 0;
  const { text, close } = st;
  // Here-doc bodies are skipped where they stand; their text is attached to the command that reads them.
  const bodies = new Map<number, number>();
  for (const doc of st.heredocs.values()) bodies.set(doc.bodyStart, doc.end);
  const hasBodies = bodies.size > 0;
  const seenNested = new Map<string, { pipelines: Pipeline[]; fetched: boolean }>();

  const parseRange = (start: number, end: number): void => {
    let words: Word[] = [];
    let redirects: Redirect[] = NONE_REDIRECTS;
    let feeds: Feed[] = NONE_FEEDS;
    let stages: Cmd[] = [];
    let pendingRedirect: string | undefined;
    let commandStart = start;
    /** Where each open `{` group's pipelines start. */
    const groups: number[] = [];
    /** The group or subshell that just closed, as a pipeline stage (for `{ …; } | sh`). */
    let groupOutput: Cmd | undefined;
    const outputStage = (from: number): Cmd => {
      let fetched = false;
      for (let k = from; k < script.pipelines.length && !fetched; k += 1) if (script.pipelines[k].stages.some((c) => isFetcherCommand(c.words) || c.opaqueOutputFetched === true)) fetched = true;
      return { words: [], redirects: NONE_REDIRECTS, feeds: NONE_FEEDS, excerpt: text.slice(commandStart, Math.min(i, commandStart + 200)), opaqueOutputFetched: fetched };
    };
    let sawFunctionParens = false;

    const addWord = (word: Word) => {
      if (pendingRedirect !== undefined) {
        if (pendingRedirect === '<<<') {
          if (feeds === NONE_FEEDS) feeds = [];
          feeds.push({ text: word.text, fetched: word.fetched });
        } else {
          if (redirects === NONE_REDIRECTS) redirects = [];
          redirects.push({ op: pendingRedirect, target: word });
        }
        pendingRedirect = undefined;
        return;
      }
      if (words.length === 0 && keyword(word.text)) return;
      if (sawFunctionParens && words.length === 1 && word.text === '{') {
        // `function NAME {`: the definition ends at its body's brace.
        endCommand(false);
        endPipeline();
        keyword('{');
        return;
      }
      words.push(word);
    };
    const keyword = (w: string): boolean => {
      if (!KEYWORDS.has(w)) return false;
      const top = loops[loops.length - 1];
      if (w === 'while' || w === 'until' || w === 'for' || w === 'select') {
        const loop: Loop = { infinite: false, spawns: false, waits: false, excerpt: text.slice(commandStart, commandStart + 200) };
        if (w === 'for') loop.infinite = /^for\s*\(\(\s*;\s*;\s*\)\)/.test(text.slice(i, i + 40));
        loops.push({ loop, phase: w === 'for' || w === 'select' ? 'body' : 'cond', until: w === 'until', condition: [], braceDepth });
      } else if (w === 'do' && top !== undefined && top.phase === 'cond') {
        const cond = top.condition.join(' ');
        top.loop.infinite = top.until ? cond === 'false' || cond === '/bin/false' : ENDLESS.has(cond) || cond === '[ 1 ]' || cond === 'test 1';
        top.phase = 'body';
      } else if (w === 'done' && top !== undefined) {
        loops.pop();
        script.loops.push(top.loop);
      } else if (w === '{') {
        braceDepth += 1;
        groups.push(script.pipelines.length);
      } else if (w === '}') {
        braceDepth -= 1;
        const from = groups.pop();
        if (from !== undefined) groupOutput = outputStage(from);
        const fn = fns[fns.length - 1];
        if (fn !== undefined && braceDepth < fn.braceDepth) {
          fns.pop();
          script.functions.push(fn.def);
        }
      } else if (w === 'function') sawFunctionParens = true;
      return true;
    };
    const endCommand = (background: boolean, piped = false) => {
      // `d=/` on its own (no command after it): later words see `$d` as `/`.
      if (!piped && stages.length === 0 && words.length > 0 && words.every((w) => ASSIGNMENT.test(w.text.slice(0, 130)))) {
        for (const w of words) {
          const eq = w.text.indexOf('=');
          assignVariable(env, w.text.slice(0, eq), { ...w, text: w.text.slice(eq + 1) });
        }
      }
      if (sawFunctionParens && words.length === 1) {
        fns.push({ def: { name: words[0].text, forksItself: false, excerpt: text.slice(commandStart, commandStart + 200) }, braceDepth: braceDepth + 1 });
        words = [];
      }
      sawFunctionParens = false;
      if (words.length > 0 || redirects.length > 0 || feeds.length > 0) {
        const cmd: Cmd = { words, redirects, feeds, excerpt: '' };
        const top = loops[loops.length - 1];
        if (top !== undefined && top.phase === 'cond') top.condition.push(...words.map((w) => w.text));
        const name = programName(words[0]?.text ?? '');
        if (name === 'wait') for (const l of loops) l.loop.waits = true;
        if (background) for (const l of loops) if (l.phase === 'body') l.loop.spawns = true;
        for (const fn of fns) if (name === fn.def.name && (background || piped || stages.length > 0 || nestedDepth > 0)) fn.def.forksItself = true;
        // A command no rule is about is not kept on its own (most are); inside a pipeline a run of
        // them is one unknown filter.
        const inert = isInertCommand(cmd);
        cmd.plain = inert || undefined;
        if (inert && (piped || stages.length > 0)) {
          if (stages[stages.length - 1] !== INERT_STAGE) stages.push(INERT_STAGE);
        } else if (!inert) {
          cmd.excerpt = text.slice(commandStart, Math.min(i, commandStart + 600));
          stages.push(cmd);
        }
      }
      if (words.length > 0) words = [];
      redirects = NONE_REDIRECTS;
      feeds = NONE_FEEDS;
    };
    const endPipeline = () => {
      if (stages.length > 0) {
        if (stages.length > 1) for (const fn of fns) if (stages.some((s) => s.words[0]?.text === fn.def.name)) fn.def.forksItself = true;
        script.pipelines.push({ stages });
      }
      stages = [];
    };
    const nested = (s: number, e: number): boolean => {
      if (s >= e) return false;
      // The same substitution again (outside loops and functions, whose bookkeeping it could touch): same commands.
      // Not once a variable has a value: the same text could then read differently.
      const cacheable = loops.length === 0 && fns.length === 0 && e - s <= 4096 && (env.vars === undefined || env.vars.size === 0);
      const key = cacheable ? text.slice(s, e) : '';
      const known = cacheable ? seenNested.get(key) : undefined;
      if (known !== undefined) {
        for (const p of known.pipelines) script.pipelines.push(p);
        return known.fetched;
      }
      const before = script.pipelines.length;
      const loopsBefore = script.loops.length;
      const fnsBefore = script.functions.length;
      nestedDepth += 1;
      parseRange(s, e);
      nestedDepth -= 1;
      let fetched = false;
      for (let k = before; k < script.pipelines.length && !fetched; k += 1) if (script.pipelines[k].stages.some((c) => isFetcherCommand(c.words))) fetched = true;
      if (cacheable && script.loops.length === loopsBefore && script.functions.length === fnsBefore) seenNested.set(key, { pipelines: script.pipelines.slice(before), fetched });
      return fetched;
    };

    let i = start;
    while (i < end) {
      if (hasBodies) {
        const jump = bodies.get(i);
        if (jump !== undefined) {
          i = jump;
          continue;
        }
      }
      const c = text[i];
      const next = text[i + 1];
      if (c === ' ' || c === '\t') {
        i += 1;
      } else if (c === '\n' || c === ';') {
        endCommand(false);
        endPipeline();
        i += c === ';' && next === ';' ? 2 : 1;
        commandStart = i;
      } else if (c === '&' && next === '&') {
        endCommand(false);
        endPipeline();
        i += 2;
        commandStart = i;
      } else if (c === '&' && next === '>') {
        pendingRedirect = text[i + 2] === '>' ? '&>>' : '&>';
        i += pendingRedirect.length;
      } else if (c === '&') {
        endCommand(true);
        endPipeline();
        i += 1;
        commandStart = i;
      } else if (c === '|' && next === '|') {
        endCommand(false);
        endPipeline();
        i += 2;
        commandStart = i;
      } else if (c === '|') {
        // `{ …; } | sh`, `( … ) | sh`: the group is the stage that writes to the pipe.
        if (groupOutput !== undefined && words.length === 0 && redirects.length === 0) stages.push(groupOutput);
        groupOutput = undefined;
        endCommand(false, true);
        i += next === '&' ? 2 : 1;
        commandStart = i;
      } else if (c === '(' && words.length > 0 && next === ')') {
        // NAME() { … }: the definition ends here; the body's `{` opens a fresh command.
        sawFunctionParens = true;
        endCommand(false);
        endPipeline();
        i += 2;
        commandStart = i;
      } else if (c === '(') {
        const shut = closeOf(close, i, end);
        endCommand(false);
        const from = script.pipelines.length;
        nested(i + 1, shut);
        groupOutput = outputStage(from);
        i = shut + 1;
        commandStart = i;
      } else if (c === ')') {
        endCommand(false);
        i += 1;
        commandStart = i;
      } else if (c === '#' && (i === start || /[\s;&|()]/.test(text[i - 1]))) {
        while (i < end && text[i] !== '\n') i += 1;
      } else if ((c === '<' || c === '>') && next !== '(') {
        let op = c;
        let k = i + 1;
        if (c === '<' && next === '<' && text[i + 2] === '<') {
          op = '<<<';
          k = i + 3;
        } else if (c === '<' && next === '<') {
          const doc = st.heredocs.get(i);
          k = i + 2 + (text[i + 2] === '-' ? 1 : 0);
          while (k < end && (text[k] === ' ' || text[k] === '\t')) k += 1;
          while (k < end && !/[\s;&|<>()]/.test(text[k])) k += 1; // the delimiter word
          if (doc !== undefined) {
            const raw = text.slice(doc.bodyStart, doc.bodyEnd);
            let fetched = false;
            if (!doc.quoted) {
              // An unquoted here-doc runs its substitutions: read them as commands.
              const inner = heredocSubstitutions(raw, env);
              script.pipelines.push(...inner.pipelines);
              fetched = inner.pipelines.some((p) => p.stages.some((s) => isFetcherCommand(s.words)));
            }
            if (feeds === NONE_FEEDS) feeds = [];
            feeds.push({ text: doc.quoted ? raw : heredocText(raw, env), fetched });
          }
          i = k;
          continue;
        } else if (next === '>' || next === '|' || next === '&' || (c === '<' && next === '>')) {
          op = c + next;
          k = i + 2;
        }
        // `2>file`: the digits before the operator name a descriptor, not a word.
        if (words.length > 0 && /^\d+$/.test(words[words.length - 1].text) && /\d/.test(text[i - 1] ?? '')) words.pop();
        pendingRedirect = op;
        i = k;
      } else {
        // A word: up to the next unquoted blank or operator, jumping over quotes and expansions.
        let j = i;
        while (j < end) {
          const code = text.charCodeAt(j);
          if (code < 128 && WORD_CHAR[code] === 1) {
            j += 1;
            continue;
          }
          const ch = text[j];
          if (ch === ' ' || ch === '\t' || ch === '\n' || ch === ';' || ch === '&' || ch === '|' || ch === ')' || (ch === '(' && j > i && text[j - 1] !== '$' && text[j - 1] !== '<' && text[j - 1] !== '>')) break;
          if ((ch === '<' || ch === '>') && text[j + 1] !== '(') break;
          if (ch === '\\') j += 2;
          else if (ch === "'" || ch === '"' || ch === '`') j = closeOf(close, j, end) + 1;
          else if (ch === '$' && (text[j + 1] === '(' || text[j + 1] === '{' || text[j + 1] === "'")) j = closeOf(close, text[j + 1] === "'" ? j + 1 : j, end) + (text[j + 1] === '(' && text[j + 2] === '(' ? 2 : 1);
          else if ((ch === '<' || ch === '>') && text[j + 1] === '(') j = closeOf(close, j, end) + 1;
          else j += 1;
        }
        if (j === i) j = i + 1;
        const { word, nested: inner } = evaluateWord(text, close, i, Math.min(j, end), env);
        const before = script.pipelines.length;
        for (const part of inner) if (nested(part.start, part.end)) word.fetched = true;
        if (script.pipelines.length > before) word.sources = script.pipelines.slice(before);
        addWord(word);
        i = j;
      }
    }
    endCommand(false);
    endPipeline();
  };

  parseRange(0, text.length);
  for (const open of loops) script.loops.push(open.loop);
  for (const fn of fns) script.functions.push(fn.def);
  return script;
}

function closeOf(close: Int32Array, at: number, limit: number): number {
  const shut = close[at];
  return shut === -1 || shut === undefined ? limit : Math.min(shut, limit);
}

/** The same text with every quote character turned into a blank: quoted text is read as code. */
export function withoutQuotes(text: string): Structure {
  return scanStructure(text.replace(/["'`]/g, ' '));
}

/** The commands of the `$( )` and backtick substitutions inside an unquoted here-doc body. */
function heredocSubstitutions(raw: string, env: WordEnv): Script {
  const inner = scanStructure(`"${raw.replace(/"/g, '\\"')}"`);
  const out = emptyScript();
  for (const part of evaluateWord(inner.text, inner.close, 0, inner.text.length, env).nested) {
    const sub = conservativeScript(scanStructure(inner.text.slice(part.start, part.end)), env);
    out.pipelines.push(...sub.pipelines);
    out.loops.push(...sub.loops);
    out.functions.push(...sub.functions);
  }
  return out;
}
