// The reply renderer (react-markdown + remark-gfm, lazily loaded highlight.js grammars) in jsdom: what our
// answers use, and what a reply must never do (scripted links, raw HTML, remote images).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { HIGHLIGHT_MAX_CHARS } from './code-block.js';
import { closeStreamingMarkdown } from './close-streaming.js';
import { MarkdownView } from './markdown-view.js';

afterEach(cleanup);

const view = (text: string) => render(<MarkdownView text={text} />).container.querySelector('.markdown') as HTMLElement;

describe('markdown for model answers', () => {
  it('renders headings one level below the page title, paragraphs with line breaks, rules and quotes', () => {
    const root = view('# Title\n\nfirst line\nsecond line\n\n---\n\n> quoted');
    expect([...root.children].map((child) => child.tagName)).toEqual(['H2', 'P', 'HR', 'BLOCKQUOTE']);
    expect(root.querySelector('h2')?.className).toBe('md-h1');
    expect(root.querySelector('p')?.innerHTML).toBe('first line<br>\nsecond line');
  });

  it('renders a GFM table with alignment and escaped pipes', () => {
    const root = view('| tool | calls |\n|:--|--:|\n| shell | x \\| y |');
    const table = within(root).getByRole('table');
    expect(table.parentElement?.className).toBe('md-table');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['tool', 'calls']);
    const cells = within(table).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual(['shell', 'x | y']);
    expect(cells[1].style.textAlign).toBe('right');
  });

  it('renders a task list with read-only checkboxes that say done / not done', () => {
    const root = view('- [x] wrote the test\n- [ ] ship it\n- plain item');
    const items = within(root).getAllByRole('listitem');
    expect(items.map((item) => item.className)).toEqual(['task', 'task', '']);
    const boxes = within(root).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => [box.getAttribute('aria-label'), box.checked, box.disabled])).toEqual([['done', true, true], ['not done', false, true]]);
    expect(items[1].textContent?.trim()).toBe('ship it');
  });

  it('renders inline code, emphasis and strikethrough, and leaves snake_case alone', () => {
    const root = view('use `npm test` **now**, *maybe* ~~never~~ with snake_case_name');
    expect(root.querySelector('code')?.textContent).toBe('npm test');
    expect(root.querySelector('strong')?.textContent).toBe('now');
    expect(root.querySelector('em')?.textContent).toBe('maybe');
    expect(root.querySelector('del')?.textContent).toBe('never');
    expect(root.textContent).toContain('snake_case_name');
  });

  it('opens http(s) and mailto links outside the app, with noopener', () => {
    const root = view('[docs](https://example.org/a_(b)) and mail [me](mailto:a@b.org), bare https://example.org/x.');
    const links = within(root).getAllByRole('link') as HTMLAnchorElement[];
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['https://example.org/a_(b)', 'mailto:a@b.org', 'https://example.org/x']);
    for (const link of links) {
      expect(link.target).toBe('_blank');
      expect(link.rel).toBe('noopener noreferrer');
    }
  });

  it('refuses javascript:, file: and relative links: the words stay, as text with the target', () => {
    const root = view('[click](javascript:alert(1)) [disk](file:///etc/passwd) [here](/settings)');
    expect(within(root).queryAllByRole('link')).toHaveLength(0);
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toBe('click (javascript:alert(1)) disk (file:///etc/passwd) here (/settings)');
  });

  it('shows raw HTML as text and loads no image', () => {
    const root = view('<b>not bold</b> <img src="https://tracker.example/p.gif" onerror="alert(1)">\n\n![a chart](https://example.org/chart.png)\n\n<script>alert(1)</script>');
    expect(root.querySelector('b, img, script')).toBeNull();
    expect(root.textContent).toContain('<b>not bold</b>');
    expect(root.textContent).toContain('<script>alert(1)</script>');
    expect(root.querySelector('.md-image-alt')?.textContent).toBe('[a chart]');
  });

  it('closes emphasis and inline code still open at the end of a streaming answer, and nothing else', () => {
    expect(closeStreamingMarkdown('Use **npm')).toBe('Use **npm**');
    expect(closeStreamingMarkdown('Run `git pu')).toBe('Run `git pu`');
    expect(closeStreamingMarkdown('**a ~~b')).toBe('**a ~~b~~**');
    expect(closeStreamingMarkdown('**done** and `x` so far')).toBe('**done** and `x` so far');
    expect(closeStreamingMarkdown('Use **')).toBe('Use **');
    expect(closeStreamingMarkdown('`a ** b`')).toBe('`a ** b`');
    expect(closeStreamingMarkdown('**old**\n\n```py\nx = "**"')).toBe('**old**\n\n```py\nx = "**"');
    const root = view(closeStreamingMarkdown('Use **npm te'));
    expect(root.querySelector('strong')?.textContent).toBe('npm te');
    expect(root.textContent).toBe('Use npm te');
  });

  it('runs an unclosed fence to the end while streaming, verbatim', () => {
    const root = view('Here:\n\n```python\nprint("**not bold**")\n# not a heading');
    const code = root.querySelector('.code-block pre code');
    expect(code?.textContent).toBe('print("**not bold**")\n# not a heading');
    expect(root.querySelector('h2, strong')).toBeNull();
  });
});

describe('code blocks', () => {
  it('shows the language and a copy button, then highlighted spans once the grammars have loaded', async () => {
    const code = 'const x = "hi"; // note\nreturn 42;';
    const root = view(`\`\`\`ts\n${code}\n\`\`\``);
    const block = root.querySelector('.code-block') as HTMLElement;
    expect(block.querySelector('.code-lang')?.textContent).toBe('ts');
    expect(within(block).getByRole('button', { name: 'Copy ts code' })).toBeTruthy();
    // The grammars are a lazily imported chunk: the code is readable (plain) at once, coloured after.
    await waitFor(() => expect(block.querySelector('.tok-keyword')?.textContent).toBe('const'));
    expect(block.querySelector('.tok-string')?.textContent).toBe('"hi"');
    expect(block.querySelector('.tok-comment')?.textContent).toBe('// note');
    expect(block.querySelector('.tok-number')?.textContent).toBe('42');
    expect(block.querySelector('code')?.textContent).toBe(code);
  });

  it('leaves unknown languages and very long blocks plain', async () => {
    render(<MarkdownView text={'```ts\nconst warm = 1;\n```'} />);
    await waitFor(() => expect(document.querySelector('.tok-keyword')).not.toBeNull());
    cleanup();
    const long = `const a = 1;\n${'x'.repeat(HIGHLIGHT_MAX_CHARS)}`;
    const root = view(`\`\`\`brainfuck\n+++\n\`\`\`\n\n\`\`\`ts\n${long}\n\`\`\``);
    const blocks = root.querySelectorAll('.code-block code');
    expect(blocks[0].textContent).toBe('+++');
    expect(blocks[1].textContent).toBe(long);
    expect(root.querySelector('[class^="tok-"]')).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy brainfuck code' })).toBeTruthy();
  });
});
