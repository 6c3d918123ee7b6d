/**
 * Quote removal and expansion for one shell word, the way sh would do it before running the
 * command: `r"m"` is `rm`, `$'\x2f'` is `/`, `$HOME` and `~` are the home folder, `${X:-/}` is `/`
 * when X is unset, `$1` is a known positional parameter of `sh -c '…' _ ARG`. Unquoted `* ? [` and
 * brace expansions are kept in a glob form (`pattern`) so targets.ts can ask whether the word could
 * name a protected root, and braces are expanded (`/{usr,etc}` → `/usr /etc`, `{rm,-rf,/}` → the
 * command `rm -rf /`, as bash does). Linear: nested parts are skipped through `close` (scan.ts).
 */
import { SUBST, VAR, type Word } from './model.js';
import { scanStructure } from './scan.js';

export interface WordEnv {
  home: string;
  /** `$0`, `$1`, … of an inner `sh -c SCRIPT ARG0 ARG1 …`. */
  positional?: string[];
  /** Variables given a literal value earlier in the script (`d=/; rm -rf "$d"`). */
  vars?: Map<string, string>;
}

/** Records `NAME=value` when the value is literal; a computed value makes NAME unknown again. */
export function assignVariable(env: WordEnv, name: string, value: Word | undefined): void {
  if (name === 'HOME' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
  env.vars ??= new Map();
  if (value !== undefined && !value.dynamic && !value.text.includes('\u0000')) env.vars.set(name, value.text);
  else env.vars.delete(name);
}

export interface Nested {
  /** Inner text range of a `$( )`, backtick or `<( )` body. */
  start: number;
  end: number;
  kind: 'subst' | 'backtick' | 'proc';
}

export interface Evaluated {
  word: Word;
  nested: Nested[];
}

/** At most this many words come out of one brace expansion; past it the word keeps its glob form. */
const MAX_BRACE_WORDS = 64;
const MAX_BRACE_INPUT = 2048;

const NO_NESTED: Nested[] = [];

export function evaluateWord(text: string, close: Int32Array, start: number, end: number, env: WordEnv): Evaluated {
  // A word of plain characters is itself (most words are).
  let k = start;
  while (k < end) {
    const code = text.charCodeAt(k);
    if (code < 128 && WORD_SPECIAL_CODES[code] === 1) break;
    k += 1;
  }
  if (k === end) return { word: { text: text.slice(start, end), dynamic: false, fetched: false, procSubst: false }, nested: NO_NESTED };
  const first = new WordReader(text, close, env, false);
  first.read(start, end);
  if (!first.globby) return { word: first.result(), nested: first.nested };
  // Only a word with unquoted glob characters or braces needs its glob form.
  const second = new WordReader(text, close, env, true);
  second.read(start, end);
  return { word: second.result(), nested: second.nested };
}

const GLOB_SPECIALS = /[*?[\]\\{},]/g;

function escapeGlob(s: string): string {
  return s.replace(GLOB_SPECIALS, '\\$&');
}

class WordReader {
  value = '';
  pattern = '';
  globby = false;
  dynamic = false;
  procSubst = false;
  readonly nested: Nested[] = [];

  constructor(
    private readonly text: string,
    private readonly close: Int32Array,
    private readonly env: WordEnv,
    private readonly wantPattern: boolean,
  ) {}

  result(): Word {
    const word: Word = { text: this.value, dynamic: this.dynamic, fetched: false, procSubst: this.procSubst };
    if (this.globby && this.wantPattern) word.pattern = this.pattern;
    return word;
  }

  lit(s: string): void {
    this.value += s;
    if (this.wantPattern) this.pattern += escapeGlob(s);
  }

  unknown(marker: string): void {
    this.value += marker;
    if (this.wantPattern) this.pattern += marker;
    this.dynamic = true;
  }

  read(start: number, end: number): void {
    const { text } = this;
    let i = start;
    while (i < end) {
      const c = text[i];
      if (c === '\\') {
        if (i + 1 < end) this.lit(text[i + 1]);
        i += 2;
      } else if (c === "'") {
        const shut = closeAt(this.close, i, end);
        this.lit(text.slice(i + 1, shut));
        i = shut + 1;
      } else if (c === '"') {
        const shut = closeAt(this.close, i, end);
        i = this.doubleQuoted(i + 1, shut);
      } else if (c === '$') {
        i = this.expansion(i, end, false);
      } else if (c === '`') {
        const shut = closeAt(this.close, i, end);
        this.nested.push({ start: i + 1, end: shut, kind: 'backtick' });
        this.unknown(SUBST);
        i = shut + 1;
      } else if ((c === '<' || c === '>') && text[i + 1] === '(') {
        const shut = closeAt(this.close, i, end);
        this.nested.push({ start: i + 2, end: shut, kind: 'proc' });
        this.procSubst = true;
        this.unknown(SUBST);
        i = shut + 1;
      } else if (c === '~' && i === start) {
        // `~` and `~/…` are the home folder; `~user` stays as written (targets.ts knows it).
        if (i + 1 === end || text[i + 1] === '/') this.lit(this.env.home);
        else this.lit('~');
        i += 1;
      } else if (c === '*' || c === '?' || c === '[' || c === ']' || c === '{' || c === '}' || c === ',') {
        if (c === '*' || c === '?' || c === '[' || c === '{') this.globby = true;
        this.value += c;
        if (this.wantPattern) this.pattern += c;
        i += 1;
      } else {
        let j = i + 1;
        while (j < end && !WORD_SPECIAL.has(text[j])) j += 1;
        this.lit(text.slice(i, j));
        i = j;
      }
    }
  }

  doubleQuoted(s: number, e: number): number {
    const { text } = this;
    let k = s;
    while (k < e) {
      const c = text[k];
      if (c === '\\' && k + 1 < e && DQ_ESCAPES.has(text[k + 1])) {
        this.lit(text[k + 1]);
        k += 2;
      } else if (c === '$') {
        k = this.expansion(k, e, true);
      } else if (c === '`') {
        const shut = closeAt(this.close, k, e);
        this.nested.push({ start: k + 1, end: shut, kind: 'backtick' });
        this.unknown(SUBST);
        k = shut + 1;
      } else {
        let j = k + 1;
        while (j < e && text[j] !== '\\' && text[j] !== '$' && text[j] !== '`') j += 1;
        this.lit(text.slice(k, j));
        k = j;
      }
    }
    return e + 1;
  }

  expansion(i: number, end: number, quoted: boolean): number {
    const { text, close } = this;
    const n1 = text[i + 1];
    if (n1 === '(' && text[i + 2] === '(') {
      const shut = closeAt(close, i, end);
      collectInArith(text, close, i + 3, shut, this.nested);
      this.unknown(VAR);
      return shut + 2;
    }
    if (n1 === '(') {
      const shut = closeAt(close, i, end);
      this.nested.push({ start: i + 2, end: shut, kind: 'subst' });
      this.unknown(SUBST);
      return shut + 1;
    }
    if (n1 === '{') {
      const shut = closeAt(close, i, end);
      this.parameter(i + 2, shut, quoted);
      return shut + 1;
    }
    if (n1 === "'" && !quoted) {
      const shut = closeAt(close, i + 1, end);
      this.lit(ansiC(text.slice(i + 2, shut)));
      return shut + 1;
    }
    if (n1 === '"' && !quoted) return i + 1; // `$"…"`: the quote that follows is read next
    const name = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(text.slice(i + 1, Math.min(end, i + 130)))?.[0];
    if (name === undefined) {
      this.lit('$');
      return i + 1;
    }
    this.variable(name);
    return i + 1 + name.length;
  }

  variable(name: string): void {
    const { env } = this;
    if (name === 'HOME') this.lit(env.home);
    else if (env.vars?.has(name) === true) this.lit(env.vars.get(name) as string);
    else if (name === 'SHELL' || name === 'BASH') this.lit('/bin/sh'); // a shell, whichever: `curl … | $SHELL`
    else if (name.length === 1 && name >= '0' && name <= '9' && env.positional?.[Number(name)] !== undefined) this.lit(env.positional[Number(name)]);
    else if ((name === '@' || name === '*') && env.positional?.[1] !== undefined) this.lit(env.positional[1]);
    else this.unknown(VAR);
  }

  /** `${NAME}`, `${NAME:-default}` (the default counts: an unset variable takes it), `${#NAME}`, … */
  parameter(s: number, e: number, quoted: boolean): void {
    const { text, close } = this;
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(:?[-=+?])?/.exec(text.slice(s, Math.min(e, s + 130)));
    if (m === null) {
      collectInArith(text, close, s, e, this.nested);
      this.unknown(VAR);
      return;
    }
    const [whole, name, op] = m;
    if (op === undefined) {
      if (s + whole.length === e) this.variable(name);
      else {
        collectInArith(text, close, s, e, this.nested);
        this.unknown(VAR);
      }
      return;
    }
    if (name === 'HOME' && !op.endsWith('+')) {
      collectInArith(text, close, s + whole.length, e, this.nested);
      this.lit(this.env.home);
      return;
    }
    if (op.endsWith('+') || op.endsWith('?')) {
      collectInArith(text, close, s + whole.length, e, this.nested);
      this.unknown(VAR);
      return;
    }
    // An unset variable becomes its default: judge the default.
    const inner = new WordReader(text, close, this.env, this.wantPattern);
    inner.read(s + whole.length, e);
    this.nested.push(...inner.nested);
    this.value += inner.value;
    if (inner.globby && !quoted) this.globby = true;
    if (this.wantPattern) this.pattern += quoted || !inner.globby ? escapeGlob(inner.value) : inner.pattern;
    this.dynamic = true;
  }
}

const WORD_SPECIAL = new Set(['\\', "'", '"', '$', '`', '<', '>', '~', '*', '?', '[', ']', '{', '}', ',']);
const WORD_SPECIAL_CODES = new Uint8Array(128);
for (const c of WORD_SPECIAL) WORD_SPECIAL_CODES[c.charCodeAt(0)] = 1;
const DQ_ESCAPES = new Set(['$', '`', '"', '\\']);

function closeAt(close: Int32Array, at: number, limit: number): number {
  const shut = close[at];
  return shut === -1 || shut === undefined ? limit : Math.min(shut, limit);
}

/** Command substitutions inside `$(( ))` or a `${…}` operand still run. */
function collectInArith(text: string, close: Int32Array, s: number, e: number, nested: Nested[]): void {
  let k = s;
  while (k < e) {
    const c = text[k];
    if (c === '$' && text[k + 1] === '(' && text[k + 2] !== '(') {
      const shut = closeAt(close, k, e);
      nested.push({ start: k + 2, end: shut, kind: 'subst' });
      k = shut + 1;
    } else if (c === '`') {
      const shut = closeAt(close, k, e);
      nested.push({ start: k + 1, end: shut, kind: 'backtick' });
      k = shut + 1;
    } else if (c === "'" || c === '"' || (c === '$' && (text[k + 1] === '{' || text[k + 1] === '('))) {
      const at = c === '$' ? k : k;
      const shut = closeAt(close, at, e);
      if (c === '"' || c === '$') collectInArith(text, close, k + (c === '$' ? 2 : 1), shut, nested);
      k = shut + 1;
    } else k += 1;
  }
}

/** `$'…'` escapes. */
export function ansiC(body: string): string {
  return body.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs, (_, e: string) => {
    switch (e[0]) {
      case 'x':
      case 'u':
      case 'U': {
        // `\x` (or `\u`, `\U`) without hex digits stays as written, as bash leaves it; so does a code
        // point past U+10FFFF (String.fromCodePoint would throw, and the reader must always decide).
        const code = Number.parseInt(e.slice(1), 16);
        return Number.isNaN(code) || code > 0x10ffff ? `\\${e}` : String.fromCodePoint(code);
      }
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'e':
      case 'E':
        return '\u001b';
      case 'a':
        return '\u0007';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case 'c':
        return String.fromCharCode(e.charCodeAt(1) & 31);
      default:
        return /^[0-7]+$/.test(e) ? String.fromCharCode(Number.parseInt(e, 8)) : e;
    }
  });
}

/**
 * Bash brace expansion of one word: `/{usr,etc}` → `/usr`, `/etc`; `{a..c}` → `a`, `b`, `c`.
 * Undefined when the word has no expansion or would give more than MAX_BRACE_WORDS words.
 */
export function expandBraces(word: Word): Word[] | undefined {
  const p = word.pattern;
  if (p === undefined || !p.includes('{') || p.length > MAX_BRACE_INPUT) return undefined;
  const results = expandPattern(p);
  if (results === undefined || results === null || results.length < 2) return undefined;
  return results.map((pat) => {
    const text = unescapePattern(pat);
    const w: Word = { text, dynamic: word.dynamic, fetched: word.fetched, procSubst: false };
    if (/(^|[^\\])[*?[]/.test(pat)) w.pattern = pat;
    return w;
  });
}

/** The expansions; undefined when there is nothing to expand, null when there would be too many. */
function expandPattern(p: string): string[] | undefined | null {
  // Find the first unescaped `{` with a matching `}` holding a top-level `,` or `..`.
  for (let i = 0; i < p.length; i += 1) {
    if (p[i] === '\\') {
      i += 1;
      continue;
    }
    if (p[i] !== '{') continue;
    let level = 0;
    const commas: number[] = [];
    let j = i;
    for (; j < p.length; j += 1) {
      const c = p[j];
      if (c === '\\') j += 1;
      else if (c === '{') level += 1;
      else if (c === '}') {
        level -= 1;
        if (level === 0) break;
      } else if (c === ',' && level === 1) commas.push(j);
    }
    if (j >= p.length) return undefined;
    if (commas.length > MAX_BRACE_WORDS) return null;
    const head = p.slice(0, i);
    const tail = p.slice(j + 1);
    let alternatives: string[];
    if (commas.length > 0) {
      alternatives = [];
      let from = i + 1;
      for (const comma of [...commas, j]) {
        alternatives.push(p.slice(from, comma));
        from = comma + 1;
      }
    } else {
      const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(p.slice(i + 1, j));
      if (range === null) continue;
      alternatives = sequence(range[1], range[2]);
      if (alternatives.length === 0) return null;
    }
    const rest = expandPattern(tail);
    if (rest === null) return null;
    const out: string[] = [];
    for (const alt of alternatives) {
      const inner = expandPattern(alt);
      if (inner === null) return null;
      for (const a of inner ?? [alt]) {
        for (const r of rest ?? [tail]) {
          out.push(head + a + r);
          if (out.length > MAX_BRACE_WORDS) return null;
        }
      }
    }
    return out;
  }
  return undefined;
}

function sequence(from: string, to: string): string[] {
  const numeric = /^-?\d+$/.test(from) && /^-?\d+$/.test(to);
  const a = numeric ? Number(from) : from.charCodeAt(0);
  const b = numeric ? Number(to) : to.charCodeAt(0);
  if (Math.abs(b - a) >= MAX_BRACE_WORDS) return [];
  const out: string[] = [];
  const step = a <= b ? 1 : -1;
  for (let k = a; step > 0 ? k <= b : k >= b; k += step) out.push(numeric ? String(k) : String.fromCharCode(k));
  return out;
}

export function unescapePattern(p: string): string {
  return p.replace(/\\(.)/gs, '$1');
}

/** The text an unquoted here-doc delivers: expanded like a double-quoted string. */
export function heredocText(raw: string, env: WordEnv): string {
  const quoted = `"${raw.replace(/"/g, '\\"')}"`;
  const st = scanStructure(quoted);
  return evaluateWord(st.text, st.close, 0, st.text.length, env).word.text;
}
