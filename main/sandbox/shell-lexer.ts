/**
 * A small POSIX-sh lexer for the hardline check: it splits a command line into simple commands the
 * way sh would (quotes, escapes, `; && || | & ( ) newline`, redirections) and pulls out the bodies of
 * `$( )`, backticks and `<( )`, which sh runs as commands too. It does not expand variables or globs:
 * hardline is a pattern check, the jail is the boundary.
 */

export interface SimpleCommand {
  /** Words after quote removal, e.g. `r"m" -'rf' /` → ['rm', '-rf', '/']. */
  words: string[];
  /** Targets of output redirections (`>`, `>>`, `>|`, `&>`). */
  redirects: string[];
}

export interface LexResult {
  commands: SimpleCommand[];
  /** Bodies of command substitutions found anywhere (also inside double quotes), for raw-text checks. */
  substitutions: string[];
}

/** Past this nesting depth we stop descending; hardline treats that as suspicious on its own. */
export const MAX_NESTING = 8;

/** Stands in for the unknown output of a command substitution inside a word. */
export const SUBSTITUTION = '\u0000subst\u0000';

export function lexShell(src: string, depth = 0): LexResult {
  const result: LexResult = { commands: [], substitutions: [] };
  if (depth > MAX_NESTING) return result;
  let words: string[] = [];
  let redirects: string[] = [];
  let cur = '';
  let started = false;
  let redirect: 'none' | 'target' | 'ignore' = 'none';

  const endWord = () => {
    if (!started) return;
    if (redirect === 'target') redirects.push(cur);
    else if (redirect === 'none') words.push(cur);
    redirect = 'none';
    cur = '';
    started = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0 || redirects.length > 0) result.commands.push({ words, redirects });
    words = [];
    redirects = [];
  };
  const nested = (body: string) => {
    result.substitutions.push(body);
    const inner = lexShell(body, depth + 1);
    result.commands.push(...inner.commands);
    result.substitutions.push(...inner.substitutions);
  };

  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const next = src[i + 1];
    if (c === '\\') {
      if (next !== '\n' && next !== undefined) cur += next;
      started = started || next !== '\n';
      i += 2;
    } else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      const close = end === -1 ? src.length : end;
      cur += src.slice(i + 1, close);
      started = true;
      i = close + 1;
    } else if (c === '"') {
      i = readDoubleQuoted(src, i + 1, (text) => (cur += text), nested);
      started = true;
    } else if (c === '$' && next === '(' && src[i + 2] === '(') {
      const close = matchParen(src, i + 1); // $(( arithmetic )): no command inside
      cur += src.slice(i, close + 1);
      started = true;
      i = close + 1;
    } else if (c === '$' && next === '(') {
      const close = matchParen(src, i + 1);
      nested(src.slice(i + 2, close));
      cur += SUBSTITUTION;
      started = true;
      i = close + 1;
    } else if (c === '$' && next === '{') {
      const close = src.indexOf('}', i);
      const end = close === -1 ? src.length : close + 1;
      cur += src.slice(i, end);
      started = true;
      i = end;
    } else if (c === '`') {
      const close = findBacktick(src, i + 1);
      nested(src.slice(i + 1, close));
      cur += SUBSTITUTION;
      started = true;
      i = close + 1;
    } else if ((c === '<' || c === '>') && next === '(' && !started) {
      const close = matchParen(src, i + 1); // process substitution
      nested(src.slice(i + 2, close));
      i = close + 1;
    } else if (c === '#' && !started) {
      const nl = src.indexOf('\n', i);
      i = nl === -1 ? src.length : nl;
    } else if (c === ' ' || c === '\t') {
      endWord();
      i += 1;
    } else if (c === '&' && next === '>') {
      endWord();
      redirect = 'target';
      i += src[i + 2] === '>' ? 3 : 2;
    } else if (c === '>' || c === '<') {
      if (started && /^\d+$/.test(cur)) {
        cur = ''; // `2>file`: the digits name a descriptor, not a word
        started = false;
      }
      endWord();
      i += 1;
      while (src[i] === '>' || src[i] === '|' || (c === '<' && src[i] === '<')) i += 1;
      if (src[i] === '&') {
        redirect = 'ignore'; // `>&2`: duplicates a descriptor
        i += 1;
      } else {
        redirect = c === '>' ? 'target' : 'ignore';
      }
    } else if (c === '\n' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
      endCommand();
      i += 1;
    } else {
      cur += c;
      started = true;
      i += 1;
    }
  }
  endCommand();
  return result;
}

function readDoubleQuoted(src: string, start: number, emit: (text: string) => void, nested: (body: string) => void): number {
  let i = start;
  while (i < src.length && src[i] !== '"') {
    const c = src[i];
    if (c === '\\' && i + 1 < src.length) {
      const n = src[i + 1];
      // Inside double quotes a backslash escapes only these; elsewhere it stays literal.
      if (n === '$' || n === '`' || n === '"' || n === '\\') emit(n);
      else if (n !== '\n') emit(`\\${n}`);
      i += 2;
    } else if (c === '$' && src[i + 1] === '(' && src[i + 2] !== '(') {
      const close = matchParen(src, i + 1);
      nested(src.slice(i + 2, close));
      emit(SUBSTITUTION);
      i = close + 1;
    } else if (c === '`') {
      const close = findBacktick(src, i + 1);
      nested(src.slice(i + 1, close));
      emit(SUBSTITUTION);
      i = close + 1;
    } else {
      emit(c);
      i += 1;
    }
  }
  return i + 1;
}

/** Index of the `)` matching the `(` at `open`, skipping quoted text; the end of input if unbalanced. */
export function matchParen(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i += 1) {
    const c = src[i];
    if (c === '\\') i += 1;
    else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      i = end === -1 ? src.length : end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return src.length;
}

function findBacktick(src: string, start: number): number {
  for (let i = start; i < src.length; i += 1) {
    if (src[i] === '\\') i += 1;
    else if (src[i] === '`') return i;
  }
  return src.length;
}
