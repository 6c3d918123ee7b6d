/**
 * The linear pre-scan every command goes through before anything else reads it. One pass, one
 * explicit stack, no regular expressions: it follows quoting, `$( )`, backticks, `${ }`, `$(( ))`,
 * process substitution, comments and here-docs the way sh does, and yields
 *
 * - `text`: the command with line continuations (backslash-newline) removed where the shell removes
 *   them — outside single quotes, comments and quoted here-docs — so no later reader can be fooled
 *   by `rm -rf /e\⏎tc`;
 * - `close`: for every opener (`$(`, `(`, `` ` ``, `${`, `$((`, `"`, `'`, `$'`) the index of its
 *   closer, so later readers jump over nested parts in O(1) and stay linear;
 * - `heredocs`: the body of each here-doc, by the index of its `<<` operator;
 * - metrics (tokens, nesting depth, pipes) that decide whether the tree-sitter parser may see it,
 *   and `wellFormed` (every quote, bracket and here-doc closed).
 */

export interface Heredoc {
  /** Index of the `<<` operator in `text`. */
  op: number;
  /** Delimiter after quote removal. */
  delimiter: string;
  /** `<<'EOF'`, `<<"EOF"`, `<<\EOF`: the body is literal (no substitutions run). */
  quoted: boolean;
  bodyStart: number;
  bodyEnd: number;
  /** Index just past the delimiter line (or the end of the text when it never came). */
  end: number;
}

export interface Structure {
  text: string;
  close: Int32Array;
  heredocs: Map<number, Heredoc>;
  wellFormed: boolean;
  tokens: number;
  depth: number;
  pipes: number;
}

type Frame = 'root' | 'paren' | 'subst' | 'proc' | 'arith' | 'param' | 'dq' | 'bq';

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

export function scanStructure(src: string): Structure {
  // The output is the input minus removed line continuations: kept as slices of the input.
  const chunks: string[] = [];
  let segStart = 0;
  let removed = 0;
  const openAt: number[] = []; // indices in the output of the frames' openers
  const frames: Frame[] = ['root'];
  const closePairs: Array<[number, number]> = [];
  const heredocs = new Map<number, Heredoc>();
  const pending: Array<{ op: number; delimiter: string; quoted: boolean; strip: boolean }> = [];
  let wellFormed = true;
  let tokens = 0;
  let depth = 1;
  let pipes = 0;
  let inWord = false;

  /** Drops the backslash-newline at `at` from the output. */
  const continuation = (at: number) => {
    chunks.push(src.slice(segStart, at));
    segStart = at + 2;
    removed += 2;
  };
  const push = (frame: Frame, at: number) => {
    openAt.push(at - removed);
    frames.push(frame);
    if (frames.length > depth) depth = frames.length;
  };
  const pop = (at: number) => {
    const open = openAt.pop() as number;
    frames.pop();
    closePairs.push([open, at - removed]);
  };

  let i = 0;
  const n = src.length;
  while (i < n) {
    const frame = frames[frames.length - 1];
    const c = src[i];
    const next = src[i + 1];

    if (frame === 'dq') {
      if (c === '\\') {
        if (next === '\n') continuation(i);
        i += 2;
      } else if (c === '"') {
        pop(i);
        i += 1;
      } else if (c === '$' || c === '`') {
        i = openExpansion(c, next, src[i + 2], i);
      } else {
        let j = i + 1;
        while (j < n && src[j] !== '\\' && src[j] !== '"' && src[j] !== '$' && src[j] !== '`') j += 1;
        i = j;
      }
      continue;
    }

    if (frame === 'arith' || frame === 'param') {
      // Inside `$(( ))` and `${ }`: quotes and nested expansions, closed by `))` / `}`.
      if (frame === 'arith' && c === ')' && next === ')') {
        pop(i);
        i += 2;
      } else if (frame === 'param' && c === '}') {
        pop(i);
        i += 1;
      } else if (c === '\\') {
        if (next === '\n') continuation(i);
        i += 2;
      } else if (c === "'" && frame === 'param') {
        i = singleQuoted(i);
      } else if (c === '"') {
        push('dq', i);
        i += 1;
      } else if (c === '$' || c === '`') {
        i = openExpansion(c, next, src[i + 2], i);
      } else if (c === '(' && frame === 'arith') {
        push('paren', i);
        i += 1;
      } else {
        i += 1;
      }
      continue;
    }

    // Code frames: root, ( ), $( ), <( ), ` `.
    if (c === '\\') {
      if (next === '\n') {
        continuation(i);
        i += 2;
        continue;
      }
      if (!inWord) tokens += 1;
      inWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      if (!inWord) tokens += 1;
      inWord = true;
      i = singleQuoted(i);
      continue;
    }
    if (c === '"') {
      tokens += inWord ? 1 : 2;
      inWord = true;
      push('dq', i);
      i += 1;
      continue;
    }
    if (c === '$' || (c === '`' && frame !== 'bq')) {
      if (!inWord) tokens += 1;
      inWord = true;
      i = openExpansion(c, next, src[i + 2], i);
      continue;
    }
    if (c === '`' && frame === 'bq') {
      pop(i);
      inWord = true;
      i += 1;
      continue;
    }
    if (c === '#' && !inWord) {
      let j = i;
      while (j < n && src[j] !== '\n') j += 1;
      i = j;
      continue;
    }
    if ((c === '<' || c === '>') && next === '(') {
      tokens += 1;
      inWord = true;
      push('proc', i);
      i += 2;
      continue;
    }
    if (c === '(') {
      tokens += 1;
      inWord = false;
      push('paren', i);
      i += 1;
      continue;
    }
    if (c === ')') {
      tokens += 1;
      inWord = false;
      // A stray `)` is a case pattern (`case x in a) …`), not an error.
      if (frame === 'paren' || frame === 'subst' || frame === 'proc') pop(i);
      i += 1;
      continue;
    }
    if (c === '<' && next === '<' && src[i + 2] === '<') {
      tokens += 1;
      inWord = false;
      i += 3;
      continue;
    }
    if (c === '<' && next === '<') {
      tokens += 1;
      inWord = false;
      i = heredocOperator(i);
      continue;
    }
    if (c === '\n') {
      tokens += 1;
      inWord = false;
      i += 1;
      if (pending.length > 0) i = heredocBodies(i);
      continue;
    }
    if (isBlank(c)) {
      inWord = false;
      let j = i + 1;
      while (j < n && isBlank(src[j])) j += 1;
      i = j;
      continue;
    }
    if (c === '|' || c === '&' || c === ';' || c === '<' || c === '>') {
      if (c === '|' && next !== '|' && src[i - 1] !== '|') pipes += 1;
      tokens += 1;
      inWord = false;
      i += 1;
      continue;
    }
    if (!inWord) tokens += 1;
    inWord = true;
    // Always at least one character (a `#` inside a word lands here): the scan must move on.
    let j = i + 1;
    if (GLOBBY[src.charCodeAt(i)] === 1) tokens += 1;
    while (j < n && isPlain(src[j])) {
      // Braces, commas and glob characters split a word into several nodes of the parser's tree.
      if (GLOBBY[src.charCodeAt(j)] === 1) tokens += 1;
      j += 1;
    }
    i = j;
  }
  if (frames.length > 1 || pending.length > 0) wellFormed = false;
  // Unclosed frames close at the end of the text.
  while (openAt.length > 0) closePairs.push([openAt.pop() as number, n - removed]);

  chunks.push(src.slice(segStart));
  const text = chunks.length === 1 ? chunks[0] : chunks.join('');
  const close = new Int32Array(text.length + 1).fill(-1);
  for (const [open, shut] of closePairs) close[open] = shut;
  return { text, close, heredocs, wellFormed, tokens, depth, pipes };

  function singleQuoted(at: number): number {
    tokens += 1;
    const end = src.indexOf("'", at + 1);
    const stop = end === -1 ? n : end + 1;
    if (end === -1) wellFormed = false;
    closePairs.push([at - removed, stop - 1 - removed]);
    return stop;
  }

  /** `$(`, `$((`, `${`, `$'…'`, `$"…"`, `` ` ``, or a plain `$name`. Returns the next index. */
  function openExpansion(c: string, n1: string | undefined, n2: string | undefined, at: number): number {
    tokens += 1; // every expansion is a node of the parser's tree
    if (c === '`') {
      push('bq', at);
      return at + 1;
    }
    if (n1 === '(' && n2 === '(') {
      push('arith', at);
      return at + 3;
    }
    if (n1 === '(') {
      push('subst', at);
      return at + 2;
    }
    if (n1 === '{') {
      push('param', at);
      return at + 2;
    }
    if (n1 === "'") {
      // ANSI-C quoting: backslash escapes, closed by an unescaped quote.
      let j = at + 2;
      while (j < n && src[j] !== "'") j += src[j] === '\\' ? 2 : 1;
      if (j >= n) wellFormed = false;
      const stop = Math.min(j + 1, n);
      closePairs.push([at + 1 - removed, stop - 1 - removed]);
      return stop;
    }
    if (n1 === '"') {
      push('dq', at + 1);
      return at + 2;
    }
    return at + 1;
  }

  function heredocOperator(at: number): number {
    const opIndex = at - removed;
    let j = at + 2;
    let strip = false;
    if (src[j] === '-') {
      strip = true;
      j += 1;
    }
    while (j < n && isBlank(src[j])) j += 1;
    // The delimiter word, with quote removal.
    let delimiter = '';
    let quoted = false;
    while (j < n && !isBlank(src[j]) && src[j] !== '\n' && src[j] !== ';' && src[j] !== '&' && src[j] !== '|' && src[j] !== '<' && src[j] !== '>' && src[j] !== '(' && src[j] !== ')') {
      const ch = src[j];
      if (ch === "'" || ch === '"') {
        quoted = true;
        const end = src.indexOf(ch, j + 1);
        const stop = end === -1 ? n : end;
        delimiter += src.slice(j + 1, stop);
        j = stop + 1;
      } else if (ch === '\\') {
        quoted = true;
        delimiter += src[j + 1] ?? '';
        j += 2;
      } else {
        delimiter += ch;
        j += 1;
      }
    }
    j = Math.min(j, n);
    if (delimiter === '') wellFormed = false;
    else pending.push({ op: opIndex, delimiter, quoted, strip });
    return j;
  }

  /** At the start of the line after here-doc operators: copies each body verbatim up to its delimiter. */
  function heredocBodies(at: number): number {
    let j = at;
    for (const doc of pending) {
      const bodyStart = j - removed;
      let bodyEnd = -1;
      while (j < n) {
        const nl = src.indexOf('\n', j);
        const lineEnd = nl === -1 ? n : nl;
        let line = src.slice(j, lineEnd);
        if (doc.strip) line = line.replace(/^\t+/, '');
        if (line === doc.delimiter) {
          bodyEnd = j - removed;
          j = nl === -1 ? n : nl + 1;
          break;
        }
        j = nl === -1 ? n : nl + 1;
      }
      if (bodyEnd === -1) {
        bodyEnd = j - removed;
        wellFormed = false;
      }
      if (!doc.quoted) {
        // Substitutions in an unquoted body are nodes of the parser's tree too.
        for (let k = bodyStart + removed; k < j; k += 1) if (src[k] === '$' || src[k] === '`') tokens += 1;
      }
      heredocs.set(doc.op, { op: doc.op, delimiter: doc.delimiter, quoted: doc.quoted, bodyStart, bodyEnd, end: j - removed });
    }
    pending.length = 0;
    return j;
  }
}

/** Characters that end a run of plain word characters in code. */
const SPECIAL = new Uint8Array(128);
for (const c of ' \t\n\\\'"$`#()|&;<>') SPECIAL[c.charCodeAt(0)] = 1;

const GLOBBY = new Uint8Array(65536);
for (const c of '{},*?[') GLOBBY[c.charCodeAt(0)] = 1;

function isPlain(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 128 || SPECIAL[code] === 0;
}

