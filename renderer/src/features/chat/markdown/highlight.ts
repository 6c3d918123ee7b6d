/**
 * Code highlighting without a dependency: one tokenizer per language family (comments, strings, numbers,
 * keywords, and for markup: tags), producing spans React renders as text. Good enough to read code in a
 * reply; not a parser. Unknown languages come back as one plain token.
 */
export type TokenKind = 'plain' | 'comment' | 'string' | 'number' | 'keyword' | 'literal' | 'tag' | 'attr' | 'added' | 'removed' | 'heading';
export interface Token {
  kind: TokenKind;
  text: string;
}

interface Grammar {
  comment: string[];
  keywords: string[];
  literals?: string[];
  /** Extra string delimiters beyond " and '. */
  backtick?: boolean;
}

const C_LIKE_COMMENTS = ['//[^\\n]*', '/\\*[\\s\\S]*?(?:\\*/|$)'];
const HASH_COMMENT = ['#[^\\n]*'];

const GRAMMARS: Record<string, Grammar> = {
  js: {
    comment: C_LIKE_COMMENTS,
    backtick: true,
    keywords: ['async', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'default', 'delete', 'do', 'else', 'export', 'extends', 'finally', 'for', 'from', 'function', 'if', 'import', 'in', 'instanceof', 'interface', 'let', 'new', 'of', 'return', 'static', 'switch', 'throw', 'try', 'type', 'typeof', 'var', 'void', 'while', 'yield', 'enum', 'implements', 'private', 'public', 'protected', 'readonly', 'as', 'satisfies'],
    literals: ['true', 'false', 'null', 'undefined', 'this', 'NaN', 'Infinity'],
  },
  python: {
    comment: HASH_COMMENT,
    keywords: ['and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield', 'match', 'case'],
    literals: ['True', 'False', 'None', 'self'],
  },
  shell: {
    comment: HASH_COMMENT,
    keywords: ['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'in', 'function', 'return', 'export', 'local', 'echo', 'cd', 'sudo', 'set', 'unset', 'source'],
  },
  rust: {
    comment: C_LIKE_COMMENTS,
    keywords: ['as', 'async', 'await', 'break', 'const', 'continue', 'crate', 'dyn', 'else', 'enum', 'extern', 'fn', 'for', 'if', 'impl', 'in', 'let', 'loop', 'match', 'mod', 'move', 'mut', 'pub', 'ref', 'return', 'self', 'Self', 'static', 'struct', 'super', 'trait', 'type', 'unsafe', 'use', 'where', 'while'],
    literals: ['true', 'false', 'None', 'Some', 'Ok', 'Err'],
  },
  go: {
    comment: C_LIKE_COMMENTS,
    backtick: true,
    keywords: ['break', 'case', 'chan', 'const', 'continue', 'default', 'defer', 'else', 'fallthrough', 'for', 'func', 'go', 'goto', 'if', 'import', 'interface', 'map', 'package', 'range', 'return', 'select', 'struct', 'switch', 'type', 'var'],
    literals: ['true', 'false', 'nil', 'iota'],
  },
  c: {
    comment: C_LIKE_COMMENTS,
    keywords: ['auto', 'break', 'case', 'char', 'class', 'const', 'continue', 'default', 'do', 'double', 'else', 'enum', 'extends', 'extern', 'final', 'float', 'for', 'goto', 'if', 'import', 'int', 'long', 'namespace', 'new', 'package', 'private', 'protected', 'public', 'return', 'short', 'signed', 'sizeof', 'static', 'struct', 'switch', 'template', 'throw', 'try', 'catch', 'typedef', 'union', 'unsigned', 'using', 'virtual', 'void', 'volatile', 'while', '#include', '#define'],
    literals: ['true', 'false', 'null', 'NULL', 'nullptr', 'this'],
  },
  sql: {
    comment: ['--[^\\n]*', '/\\*[\\s\\S]*?(?:\\*/|$)'],
    keywords: ['select', 'from', 'where', 'insert', 'into', 'values', 'update', 'set', 'delete', 'create', 'table', 'drop', 'alter', 'join', 'left', 'right', 'inner', 'outer', 'on', 'group', 'by', 'order', 'having', 'limit', 'and', 'or', 'not', 'as', 'distinct', 'index', 'primary', 'key', 'union', 'with'],
    literals: ['null', 'true', 'false'],
  },
  data: { comment: HASH_COMMENT, keywords: [], literals: ['true', 'false', 'null', 'yes', 'no'] },
};

const ALIASES: Record<string, string> = {
  javascript: 'js', jsx: 'js', ts: 'js', typescript: 'js', tsx: 'js', mjs: 'js', cjs: 'js', json: 'data', jsonc: 'data',
  py: 'python', python3: 'python', sh: 'shell', bash: 'shell', zsh: 'shell', console: 'shell', shell: 'shell',
  rs: 'rust', golang: 'go', cpp: 'c', 'c++': 'c', h: 'c', hpp: 'c', java: 'c', cs: 'c', csharp: 'c', kotlin: 'c', swift: 'c',
  toml: 'data', yaml: 'data', yml: 'data', ini: 'data', psql: 'sql', sqlite: 'sql',
};

const cache = new Map<string, RegExp>();

function escapeWord(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function grammarRegex(name: string, grammar: Grammar): RegExp {
  let regex = cache.get(name);
  if (!regex) {
    const strings = ['"(?:[^"\\\\\\n]|\\\\.)*"?', "'(?:[^'\\\\\\n]|\\\\.)*'?", ...(grammar.backtick ? ['`(?:[^`\\\\]|\\\\.)*`?'] : [])];
    const words = (list: string[] | undefined) => (list && list.length ? `(?<![\\w$])(?:${list.map(escapeWord).join('|')})(?![\\w$])` : '(?!)');
    regex = new RegExp(
      `(?<comment>${grammar.comment.join('|')})|(?<string>${strings.join('|')})|(?<number>\\b(?:0x[\\da-fA-F_]+|\\d[\\d_]*(?:\\.\\d+)?(?:e[+-]?\\d+)?)\\b)|(?<keyword>${words(grammar.keywords)})|(?<literal>${words(grammar.literals)})`,
      name === 'sql' ? 'gi' : 'g',
    );
    cache.set(name, regex);
  }
  regex.lastIndex = 0;
  return regex;
}

function markup(code: string): Token[] {
  const tokens: Token[] = [];
  const regex = /(<!--[\s\S]*?(?:-->|$))|(<\/?[A-Za-z][\w:-]*)|("[^"]*"|'[^']*')|(\/?>)/g;
  let last = 0;
  for (const match of code.matchAll(regex)) {
    if (match.index > last) tokens.push({ kind: 'plain', text: code.slice(last, match.index) });
    tokens.push({ kind: match[1] ? 'comment' : match[2] || match[4] ? 'tag' : 'string', text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < code.length) tokens.push({ kind: 'plain', text: code.slice(last) });
  return tokens;
}

function diff(code: string): Token[] {
  return code.split(/(?<=\n)/).map((line) => ({
    kind: line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : line.startsWith('@@') ? 'heading' : 'plain',
    text: line,
  }));
}

export function highlight(code: string, lang: string): Token[] {
  const name = ALIASES[lang] ?? lang;
  if (['html', 'xml', 'svg', 'vue'].includes(name)) return markup(code);
  if (name === 'diff' || name === 'patch') return diff(code);
  const grammar = GRAMMARS[name];
  // Very long blocks are shown plain: highlighting is a nicety, a frozen window is not.
  if (!grammar || code.length > 100_000) return [{ kind: 'plain', text: code }];
  const tokens: Token[] = [];
  let last = 0;
  for (const match of code.matchAll(grammarRegex(name, grammar))) {
    if (match[0] === '') continue;
    if (match.index > last) tokens.push({ kind: 'plain', text: code.slice(last, match.index) });
    const groups = match.groups ?? {};
    const kind = (Object.keys(groups).find((key) => groups[key] !== undefined) ?? 'plain') as TokenKind;
    tokens.push({ kind, text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < code.length) tokens.push({ kind: 'plain', text: code.slice(last) });
  return tokens;
}
