import { describe, expect, it } from 'vitest';
import { highlight } from './highlight.js';
import { parseInline, parseMarkdown, safeHref } from './parse-markdown.js';

describe('markdown for model answers', () => {
  it('parses headings, paragraphs with line breaks, rules and quotes', () => {
    const blocks = parseMarkdown('# Title\n\nfirst line\nsecond line\n\n---\n\n> quoted\n> more');
    expect(blocks.map((block) => block.type)).toEqual(['heading', 'paragraph', 'rule', 'quote']);
    expect(blocks[1]).toEqual({ type: 'paragraph', children: [{ type: 'text', text: 'first line' }, { type: 'break' }, { type: 'text', text: 'second line' }] });
  });

  it('keeps fenced code verbatim, with its language, and runs an unclosed fence to the end while streaming', () => {
    expect(parseMarkdown('```ts\nconst a = "**not bold**";\n```\nafter')).toEqual([
      { type: 'code', lang: 'ts', text: 'const a = "**not bold**";', open: false },
      { type: 'paragraph', children: [{ type: 'text', text: 'after' }] },
    ]);
    expect(parseMarkdown('```\nstill streaming\n# not a heading')).toEqual([{ type: 'code', lang: '', text: 'still streaming\n# not a heading', open: true }]);
  });

  it('parses nested and ordered lists and task items', () => {
    const [list] = parseMarkdown('- one\n- two\n  - nested\n- [x] done\n- [ ] todo');
    expect(list.type).toBe('list');
    if (list.type !== 'list') return;
    expect(list.items).toHaveLength(4);
    expect(list.items[1].children.map((block) => block.type)).toEqual(['paragraph', 'list']);
    expect(list.items[2].checked).toBe(true);
    expect(list.items[3].checked).toBe(false);
    const [ordered] = parseMarkdown('3. three\n4. four');
    expect(ordered).toMatchObject({ type: 'list', ordered: true, start: 3 });
  });

  it('parses GFM tables with alignment and escaped pipes', () => {
    const [table] = parseMarkdown('| a | b |\n|:--|--:|\n| 1 | x \\| y |');
    expect(table).toMatchObject({ type: 'table', align: ['left', 'right'] });
    if (table.type !== 'table') return;
    expect(table.rows[0][1]).toEqual([{ type: 'text', text: 'x | y' }]);
  });

  it('parses inline code, emphasis, strikethrough and leaves snake_case alone', () => {
    expect(parseInline('use `npm test` **now**, *maybe* ~~never~~ with snake_case_name')).toEqual([
      { type: 'text', text: 'use ' },
      { type: 'code', text: 'npm test' },
      { type: 'text', text: ' ' },
      { type: 'strong', children: [{ type: 'text', text: 'now' }] },
      { type: 'text', text: ', ' },
      { type: 'em', children: [{ type: 'text', text: 'maybe' }] },
      { type: 'text', text: ' ' },
      { type: 'del', children: [{ type: 'text', text: 'never' }] },
      { type: 'text', text: ' with snake_case_name' },
    ]);
  });

  it('makes links only of http(s) and mailto; javascript: and file: stay visible text', () => {
    expect(parseInline('[docs](https://example.org/a_(b))')).toEqual([{ type: 'link', href: 'https://example.org/a_(b)', children: [{ type: 'text', text: 'docs' }] }]);
    expect(parseInline('[click](javascript:alert(1))')).toEqual([{ type: 'text', text: 'click' }, { type: 'text', text: ' (javascript:alert(1))' }]);
    expect(parseInline('see https://example.org/x.')).toEqual([{ type: 'text', text: 'see ' }, { type: 'link', href: 'https://example.org/x', children: [{ type: 'text', text: 'https://example.org/x' }] }, { type: 'text', text: '.' }]);
    expect(safeHref('file:///etc/passwd')).toBeNull();
    expect(safeHref(' HTTPS://x.org ')).toBe('HTTPS://x.org');
  });

  it('keeps raw HTML as text', () => {
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([{ type: 'text', text: '<img src=x onerror=alert(1)>' }]);
  });
});

describe('code highlighting', () => {
  it('marks keywords, strings, numbers and comments, and gives back the code unchanged', () => {
    const code = 'const x = "hi"; // note\nreturn 42;';
    const tokens = highlight(code, 'ts');
    expect(tokens.map((token) => token.text).join('')).toBe(code);
    expect(tokens.filter((token) => token.kind !== 'plain').map((token) => `${token.kind}:${token.text}`)).toEqual(['keyword:const', 'string:"hi"', 'comment:// note', 'keyword:return', 'number:42']);
  });

  it('handles shell, diff and unknown languages', () => {
    expect(highlight('echo "a" # c', 'bash').map((token) => token.kind)).toContain('comment');
    expect(highlight('+added\n-removed\n', 'diff').map((token) => token.kind)).toEqual(['added', 'removed']);
    expect(highlight('whatever', 'brainfuck')).toEqual([{ kind: 'plain', text: 'whatever' }]);
  });
});
