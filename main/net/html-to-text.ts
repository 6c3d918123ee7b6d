/**
 * HTML → readable, markdown-light text for web_fetch (reference §2.13). Two maintained libraries do the
 * work (decision 0023): Mozilla's Readability (Firefox Reader View) picks the page's main content out of
 * a linkedom DOM — no navigation, cookie banners, sidebars or scripts — and html-to-text lays it out:
 * `# ` headings, `- ` list items, `[text](absolute url)` links, tables as aligned text, `[image: alt]`.
 * When Readability finds no article (a table-heavy index, a page that is mostly script), the whole body
 * is laid out instead, minus non-content elements. The output is plain text: a layout mistake costs
 * readability, never safety. Caps and Net.Guard stay in web-fetch-core.ts / guarded-fetch.ts.
 */
import { Readability } from '@mozilla/readability';
import { convert, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { parseHTML } from 'linkedom';

// Never content for a reader; removed before either path runs (Readability drops most, the fallback needs it).
const NON_CONTENT = 'script, style, noscript, template, nav, svg, iframe, object, head, form, button';
/** Readability's article must carry at least this share of the body's text, else it missed the content. */
const MIN_ARTICLE_SHARE = 0.2;
const LEVEL_ATTRIBUTE = 'data-fermix-heading';

function safeHref(href: string | undefined, baseUrl: string | undefined): string | undefined {
  if (href === undefined || href.trim() === '' || href.startsWith('#')) return undefined;
  try {
    const url = new URL(href.trim(), baseUrl);
    // javascript:, data: and friends are not places a reader can go.
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/gu, ' ').trim();
}

function options(baseUrl: string | undefined): HtmlToTextOptions {
  const heading = (level: number): FormatCallback => (elem, walk, builder) => {
    builder.openBlock({ leadingLineBreaks: 2 });
    const original = Number(elem.attribs?.[LEVEL_ATTRIBUTE]);
    builder.addInline(`${'#'.repeat(original >= 1 && original <= 6 ? original : level)} `);
    walk(elem.children, builder);
    builder.closeBlock({ trailingLineBreaks: 2 });
  };
  const link: FormatCallback = (elem, walk, builder) => {
    const href = safeHref(elem.attribs?.href, baseUrl);
    if (href === undefined) return walk(elem.children, builder);
    // The label is laid out by the library (entities, nested inline tags), then wrapped as markdown.
    const label = collapse(convert(`<span>${(elem.children ?? []).length ? renderChildren(elem) : ''}</span>`, { wordwrap: false }));
    if (label === '' || label === href) return builder.addInline(href);
    builder.addInline(`[${label}](${href})`);
  };
  const image: FormatCallback = (elem, _walk, builder) => {
    const alt = collapse(elem.attribs?.alt ?? '');
    if (alt !== '') builder.addInline(`[image: ${alt}]`);
  };
  return {
    wordwrap: false,
    preserveNewlines: false,
    formatters: { fermixHeading1: heading(1), fermixHeading2: heading(2), fermixHeading3: heading(3), fermixHeading4: heading(4), fermixHeading5: heading(5), fermixHeading6: heading(6), fermixLink: link, fermixImage: image },
    selectors: [
      ...[1, 2, 3, 4, 5, 6].map((level) => ({ selector: `h${level}`, format: `fermixHeading${level}` })),
      { selector: 'a', format: 'fermixLink' },
      { selector: 'img', format: 'fermixImage' },
      { selector: 'ul', options: { itemPrefix: '- ' } },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false, maxColumnWidth: 40 } },
      { selector: 'hr', format: 'skip' },
    ],
  };
}

/** The element's inner HTML, for the link label (html-to-text hands formatters parsed nodes). */
function renderChildren(elem: Parameters<FormatCallback>[0]): string {
  const text = (node: { type?: string; data?: string; children?: unknown[] }): string =>
    node.type === 'text' ? escape(node.data ?? '') : (node.children ?? []).map((child) => text(child as typeof node)).join('');
  return text(elem as never);
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

export function htmlToText(html: string, baseUrl?: string): string {
  // linkedom builds no body for a bare fragment; a page's own <html>/<body> is kept as it is.
  const { document } = parseHTML(/<(?:html|body)[\s>]/iu.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`);
  const title = collapse(document.querySelector('title')?.textContent ?? '');
  for (const node of [...document.querySelectorAll(NON_CONTENT)]) node.remove();
  // Readability renames h1 to h2 (it keeps one top heading per article); the level rides along as an attribute.
  for (const node of [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]) node.setAttribute(LEVEL_ATTRIBUTE, node.tagName.slice(1));
  const bodyHtml = document.body?.innerHTML ?? html;
  const bodyText = collapse(document.body?.textContent ?? '');
  let content = bodyHtml;
  try {
    // Readability mutates the document it reads; the body HTML above is the fallback, taken first.
    const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
    const articleText = collapse(article?.textContent ?? '');
    if (article?.content && articleText.length >= MIN_ARTICLE_SHARE * bodyText.length) content = article.content;
  } catch {
    // A page Readability cannot walk is laid out whole.
  }
  const text = convert(content, options(baseUrl))
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+$/u, ''))
    .join('\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
  return title === '' ? text : `Title: ${title}${text === '' ? '' : `\n\n${text}`}`;
}

// Kept here for the tests that read both; the light module is entities.ts.
export { decodeEntities } from './entities.js';
