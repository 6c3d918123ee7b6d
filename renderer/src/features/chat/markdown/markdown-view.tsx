import { memo, type ReactNode } from 'react';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import { gfmReading } from './gfm-reading.js';
import { CodeBlock } from './code-block.js';
import { safeHref } from './safe-href.js';

/** Hast text under a node (a fenced block's code element holds text only, no highlighting plugin runs). */
function textOf(node: ExtraProps['node'] | { type: string; value?: string; children?: unknown[] } | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return (node as { value: string }).value;
  return ((node as { children?: unknown[] }).children ?? []).map((child) => textOf(child as { type: string })).join('');
}

/** The page's h1 is the conversation title, so a reply's `#` is an h2 (styled as md-h1) and so on. */
function heading(level: 1 | 2 | 3 | 4 | 5 | 6) {
  const Tag = `h${Math.min(6, level + 1)}` as 'h2';
  return function Heading({ children }: { children?: ReactNode }) {
    return <Tag className={`md-h${level}`}>{children}</Tag>;
  };
}

const COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  pre({ node }) {
    const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
    const classes = code && code.type === 'element' ? code.properties.className : undefined;
    const lang = (Array.isArray(classes) ? classes.map(String) : []).find((name) => name.startsWith('language-'))?.slice('language-'.length) ?? '';
    return <CodeBlock lang={lang} text={textOf(code).replace(/\n$/, '')} />;
  },
  a({ href, children }) {
    const safe = safeHref(href);
    // Opens outside the app: the Electron shell hands it to the system browser, a browser opens a tab.
    if (safe) return <a href={safe} target="_blank" rel="noopener noreferrer" title={safe}>{children}</a>;
    // javascript:, file:, relative…: the words stay, with the target shown as text, never as a link.
    return <>{children}{href ? ` (${href})` : null}</>;
  },
  // No image is loaded from a reply (no remote loads, no tracking pixels): its description stays as text.
  img({ alt }) {
    return alt ? <span className="md-image-alt">[{alt}]</span> : null;
  },
  table({ children }) {
    return (
      <div className="md-table">
        <table>{children}</table>
      </div>
    );
  },
  li({ className, children }) {
    return <li className={className?.includes('task-list-item') ? 'task' : undefined}>{children}</li>;
  },
  input({ type, checked }) {
    if (type !== 'checkbox') return null;
    return <input type="checkbox" checked={Boolean(checked)} readOnly disabled aria-label={checked ? 'done' : 'not done'} />;
  },
};

const REMARK_PLUGINS = [gfmReading, remarkBreaks];

/** Every URL is kept for the components above to judge; only `a` uses one, and only a safe one as a link. */
const keepUrl = (url: string) => url;

/**
 * Model text as elements through react-markdown (never as HTML: raw HTML in a reply stays visible text,
 * react-markdown's default without rehype-raw). GFM for tables, task lists, strikethrough and bare URLs;
 * single newlines are line breaks, as models mean them. Memoized on the text: streaming re-parses only
 * the message that grew. An unclosed fence while streaming runs to the end of the text (CommonMark).
 */
export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS} urlTransform={keepUrl}>
        {text}
      </Markdown>
    </div>
  );
});
