/**
 * A small GFM subset for model answers, parsed to a tree that React renders as elements: model text
 * never becomes HTML (no innerHTML anywhere), so a reply cannot inject markup or script. Covers what
 * models write: headings, paragraphs, lists (nested, task items), fenced code (an unclosed fence while
 * streaming runs to the end), block quotes, tables, rules, and inline code, emphasis, strikethrough,
 * links and bare URLs. Raw HTML stays visible as text.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em' | 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'break' };

export type Align = 'left' | 'center' | 'right' | null;

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'code'; lang: string; text: string; open: boolean }
  | { type: 'quote'; children: Block[] }
  | { type: 'list'; ordered: boolean; start: number; items: { checked: boolean | null; children: Block[] }[] }
  | { type: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] }
  | { type: 'rule' };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+(.*))?$/;
const TABLE_DELIMITER = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'));
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** A line that ends a paragraph because another block starts there. */
function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1];
      const body: string[] = [];
      i += 1;
      let open = true;
      while (i < lines.length) {
        if (new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(lines[i])) {
          open = false;
          i += 1;
          break;
        }
        body.push(lines[i]);
        i += 1;
      }
      blocks.push({ type: 'code', lang: fence[2].toLowerCase(), text: body.join('\n'), open });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1].length as 1, children: parseInline(heading[2] ?? '') });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !isBlank(lines[i])) {
        const quoted = QUOTE.exec(lines[i]);
        inner.push(quoted ? quoted[1] : lines[i]);
        i += 1;
      }
      blocks.push({ type: 'quote', children: parseBlocks(inner) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      i = parseList(lines, i, blocks);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DELIMITER.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      i = parseTable(lines, i, blocks);
      continue;
    }
    const paragraph: string[] = [line];
    i += 1;
    while (i < lines.length && !isBlank(lines[i]) && !startsBlock(lines[i])) {
      paragraph.push(lines[i]);
      i += 1;
    }
    blocks.push({ type: 'paragraph', children: parseInline(paragraph.join('\n').trim()) });
  }
  return blocks;
}

function parseList(lines: string[], start: number, blocks: Block[]): number {
  const first = LIST_ITEM.exec(lines[start])!;
  const ordered = /\d/.test(first[2]);
  const items: { checked: boolean | null; children: Block[] }[] = [];
  let i = start;
  while (i < lines.length) {
    const match = LIST_ITEM.exec(lines[i]);
    if (!match || /\d/.test(match[2]) !== ordered) break;
    const indent = match[1].length + match[2].length + 1;
    const body: string[] = [match[4] ?? ''];
    i += 1;
    // Continuation: indented lines (nested lists, code) and lazy paragraph lines; a blank line followed by
    // an unindented line ends the item.
    while (i < lines.length) {
      const next = lines[i];
      if (isBlank(next)) {
        if (i + 1 < lines.length && /^\s+\S/.test(lines[i + 1]) && leadingSpaces(lines[i + 1]) >= Math.min(indent, 2)) {
          body.push('');
          i += 1;
          continue;
        }
        break;
      }
      if (leadingSpaces(next) >= Math.min(indent, 2)) {
        body.push(next.slice(Math.min(leadingSpaces(next), indent)));
        i += 1;
        continue;
      }
      if (startsBlock(next)) break;
      body.push(next);
      i += 1;
    }
    let checked: boolean | null = null;
    const task = /^\[([ xX])\][ \t]+/.exec(body[0]);
    if (task) {
      checked = task[1] !== ' ';
      body[0] = body[0].slice(task[0].length);
    }
    items.push({ checked, children: parseBlocks(body) });
    // Skip single blank lines between items of the same list.
    if (i < lines.length && isBlank(lines[i]) && i + 1 < lines.length && LIST_ITEM.test(lines[i + 1])) i += 1;
  }
  blocks.push({ type: 'list', ordered, start: ordered ? Number.parseInt(first[2], 10) : 1, items });
  return i;
}

function leadingSpaces(line: string): number {
  return line.length - line.replace(/^[ \t]+/, '').length;
}

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  let inCode = false;
  for (let index = 0; index < row.length; index += 1) {
    const char = row[index];
    if (char === '\\' && row[index + 1] === '|') {
      current += '|';
      index += 1;
    } else if (char === '`') {
      inCode = !inCode;
      current += char;
    } else if (char === '|' && !inCode) {
      cells.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  cells.push(current.trim());
  return cells;
}

function parseTable(lines: string[], start: number, blocks: Block[]): number {
  const head = splitRow(lines[start]);
  const align: Align[] = splitRow(lines[start + 1]).map((cell) => {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':');
    return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
  });
  const rows: Inline[][][] = [];
  let i = start + 2;
  while (i < lines.length && !isBlank(lines[i]) && lines[i].includes('|')) {
    const cells = splitRow(lines[i]);
    rows.push(head.map((_, column) => parseInline(cells[column] ?? '')));
    i += 1;
  }
  blocks.push({ type: 'table', align: head.map((_, column) => align[column] ?? null), head: head.map((cell) => parseInline(cell)), rows });
  return i;
}

const SAFE_SCHEME = /^(https?:\/\/|mailto:)/i;

/** Only http(s) and mailto links become links; anything else (javascript:, file:, data:) stays text. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  return SAFE_SCHEME.test(trimmed) ? trimmed : null;
}

const BARE_URL = /^https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"\])]/;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ type: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const char = text[i];
    if (char === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!|~<>]/.test(text[i + 1])) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (char === '\n') {
      flush();
      out.push({ type: 'break' });
      i += 1;
      continue;
    }
    if (char === '`') {
      const ticks = /^`+/.exec(rest)![0];
      const end = text.indexOf(ticks, i + ticks.length);
      if (end !== -1) {
        flush();
        out.push({ type: 'code', text: text.slice(i + ticks.length, end).replace(/\n/g, ' ').trim() || text.slice(i + ticks.length, end) });
        i = end + ticks.length;
        continue;
      }
      buffer += ticks;
      i += ticks.length;
      continue;
    }
    const emphasis = matchDelimited(text, i);
    if (emphasis) {
      flush();
      out.push({ type: emphasis.type, children: parseInline(emphasis.inner) });
      i = emphasis.end;
      continue;
    }
    if (char === '[') {
      const link = matchLink(text, i);
      if (link) {
        flush();
        const href = safeHref(link.href);
        if (href) out.push({ type: 'link', href, children: parseInline(link.label) });
        else out.push(...parseInline(link.label), { type: 'text', text: ` (${link.href})` });
        i = link.end;
        continue;
      }
    }
    if (char === '<') {
      const auto = /^<(https?:\/\/[^\s<>]+)>/.exec(rest);
      if (auto) {
        flush();
        out.push({ type: 'link', href: auto[1], children: [{ type: 'text', text: auto[1] }] });
        i += auto[0].length;
        continue;
      }
    }
    if ((char === 'h' || char === 'H') && (i === 0 || /[\s(*_~]/.test(text[i - 1]))) {
      const bare = BARE_URL.exec(rest);
      if (bare) {
        flush();
        out.push({ type: 'link', href: bare[0], children: [{ type: 'text', text: bare[0] }] });
        i += bare[0].length;
        continue;
      }
    }
    buffer += char;
    i += 1;
  }
  flush();
  return out;
}

function matchDelimited(text: string, i: number): { type: 'strong' | 'em' | 'del'; inner: string; end: number } | null {
  const candidates: { marker: string; type: 'strong' | 'em' | 'del' }[] = [
    { marker: '**', type: 'strong' },
    { marker: '__', type: 'strong' },
    { marker: '~~', type: 'del' },
    { marker: '*', type: 'em' },
    { marker: '_', type: 'em' },
  ];
  for (const { marker, type } of candidates) {
    if (!text.startsWith(marker, i)) continue;
    const after = text[i + marker.length];
    if (after === undefined || /\s/.test(after)) continue;
    // Intraword underscores (snake_case) are not emphasis.
    if (marker[0] === '_' && i > 0 && /\w/.test(text[i - 1])) continue;
    let search = i + marker.length + 1;
    while (search <= text.length) {
      const end = text.indexOf(marker, search);
      if (end === -1) break;
      const before = text[end - 1];
      const next = text[end + marker.length];
      const closes = !/\s/.test(before) && !(marker[0] === '_' && next !== undefined && /\w/.test(next));
      // A single * must not close on the first half of a ** pair.
      const doubled = marker.length === 1 && text[end + 1] === marker;
      if (closes && !doubled) return { type, inner: text.slice(i + marker.length, end), end: end + marker.length };
      search = end + (doubled ? 2 : 1);
    }
  }
  return null;
}

function matchLink(text: string, i: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let index = i; index < text.length; index += 1) {
    if (text[index] === '\\') {
      index += 1;
      continue;
    }
    if (text[index] === '[') depth += 1;
    if (text[index] === ']') {
      depth -= 1;
      if (depth === 0) {
        close = index;
        break;
      }
    }
  }
  if (close === -1 || text[close + 1] !== '(') return null;
  const target = /^\(\s*<?([^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)>?(?:\s+"[^"]*")?\s*\)/.exec(text.slice(close + 1));
  if (!target) return null;
  return { label: text.slice(i + 1, close), href: target[1], end: close + 1 + target[0].length };
}
