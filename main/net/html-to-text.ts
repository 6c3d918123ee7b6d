/**
 * HTML → readable, markdown-light text for web_fetch (Fermix uses Floki + HtmlText; we add no dependency).
 * Not a full HTML parser: it drops non-content elements, keeps headings (# …), paragraph and line breaks,
 * list items (- …) and links ([text](absolute url)), and decodes entities. Good enough for a model to read a
 * page; anything it gets wrong costs readability, never safety (the output is plain text).
 */

// Elements whose whole content is noise for a reader. Matched to the first closing tag, as the HTML
// tokenizer itself does for script/style raw text.
const DROPPED = ['script', 'style', 'noscript', 'template', 'nav', 'svg', 'iframe', 'object', 'head'];
const PARAGRAPH = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'ul', 'ol', 'dl', 'figure', 'hr',
  'section', 'article', 'header', 'footer', 'main', 'aside', 'address', 'details', 'form', 'fieldset',
]);
const LINE = new Set(['div', 'br', 'tr', 'li', 'dt', 'dd', 'figcaption', 'caption', 'summary', 'option']);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>/gu;

export function htmlToText(html: string, baseUrl?: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/iu.exec(html)?.[1];
  // Comments, then <!doctype …> and <?xml …?> declarations: markup, never content.
  let source = html.replace(/<!--[\s\S]*?(?:-->|$)/gu, '').replace(/<[!?][^>]*>/gu, ' ');
  for (const name of DROPPED) {
    source = source.replace(new RegExp(`<${name}\\b[^>]*>[\\s\\S]*?(?:</${name}\\s*>|$)`, 'giu'), ' ');
  }
  const out = new TextBuilder();
  const titleText = title === undefined ? '' : collapse(decodeEntities(title)).trim();
  if (titleText !== '') {
    out.text(`Title: ${titleText}`);
    out.brk(2);
  }
  let cursor = 0;
  let preDepth = 0;
  const links: Array<{ href: string | undefined; start: number }> = [];
  for (const match of source.matchAll(TAG)) {
    out.text(textOf(source.slice(cursor, match.index), preDepth > 0));
    cursor = match.index + match[0].length;
    const closing = match[1] === '/';
    const name = match[2].toLowerCase();
    const attributes = match[3];
    if (name === 'pre') preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
    if (PARAGRAPH.has(name)) out.brk(2);
    else if (LINE.has(name)) out.brk(1);
    if (closing) {
      if (name === 'a') closeLink(out, links.pop());
      continue;
    }
    if (/^h[1-6]$/u.test(name)) out.text(`${'#'.repeat(Number(name[1]))} `);
    else if (name === 'li') out.text('- ');
    else if (name === 'a') links.push({ href: absolute(attribute(attributes, 'href'), baseUrl), start: out.length });
    else if (name === 'img') {
      const alt = attribute(attributes, 'alt');
      if (alt) out.text(` [image: ${collapse(alt).trim()}] `);
    }
  }
  out.text(textOf(source.slice(cursor), preDepth > 0));
  return out.result();
}

function closeLink(out: TextBuilder, link: { href: string | undefined; start: number } | undefined): void {
  if (!link?.href) return;
  const label = out.since(link.start).trim();
  if (label === '' || label === link.href) return;
  out.wrapSince(link.start, `[${label}](${link.href})`);
}

function textOf(raw: string, preformatted: boolean): string {
  const decoded = decodeEntities(raw);
  return preformatted ? decoded : collapse(decoded);
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/gu, ' ');
}

function attribute(attributes: string, name: string): string | undefined {
  const found = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'iu').exec(attributes);
  if (!found) return undefined;
  return decodeEntities(found[1] ?? found[2] ?? found[3] ?? '');
}

function absolute(href: string | undefined, baseUrl: string | undefined): string | undefined {
  if (href === undefined || href.trim() === '' || href.startsWith('#')) return undefined;
  try {
    const url = new URL(href.trim(), baseUrl);
    // javascript:, data: and friends are not places a reader can go.
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«',
  raquo: '»', middot: '·', bull: '•', euro: '€', pound: '£', yen: '¥', cent: '¢', times: '×',
  divide: '÷', deg: '°', para: '¶', sect: '§', shy: '', zwnj: '\u200c', zwj: '\u200d',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/giu, (whole, body: string) => {
    if (body[0] !== '#') return NAMED[body.toLowerCase()] ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    // NUL, surrogates and out-of-range code points become U+FFFD, as the HTML spec says.
    const invalid = code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
    return invalid ? '\ufffd' : String.fromCodePoint(code);
  });
}

/** Accumulates text with pending breaks, so nested blocks give one blank line, not five. */
class TextBuilder {
  private buffer = '';
  private pending = 0;

  get length(): number {
    return this.buffer.length;
  }

  brk(level: 1 | 2): void {
    if (this.buffer !== '') this.pending = Math.max(this.pending, level);
  }

  text(piece: string): void {
    if (piece === '' || (piece === ' ' && (this.pending > 0 || /\s$/u.test(this.buffer) || this.buffer === ''))) return;
    if (this.pending > 0) {
      this.buffer = this.buffer.replace(/[ \t]+$/u, '') + '\n'.repeat(this.pending);
      this.pending = 0;
      piece = piece.replace(/^ +/u, '');
      if (piece === '') return;
    }
    if (/\s$/u.test(this.buffer) && piece.startsWith(' ')) piece = piece.slice(1);
    this.buffer += piece;
  }

  since(start: number): string {
    return this.buffer.slice(start);
  }

  wrapSince(start: number, replacement: string): void {
    const leading = /^\s*/u.exec(this.buffer.slice(start))?.[0] ?? '';
    this.buffer = this.buffer.slice(0, start) + leading + replacement;
  }

  result(): string {
    return this.buffer
      .split('\n')
      .map((line) => line.replace(/[ \t\u00a0]+$/u, ''))
      .join('\n')
      .replace(/\n{3,}/gu, '\n\n')
      .trim();
  }
}
