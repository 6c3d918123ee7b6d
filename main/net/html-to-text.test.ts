import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText } from './html-to-text.js';

describe('htmlToText', () => {
  it('keeps the title, headings, paragraphs, lists and links; drops script, style and nav', () => {
    const html = `<!doctype html><html><head><title>The &amp; Page</title><style>body{color:red}</style>
      <script>var secret = "</p>nope";</script></head><body>
      <nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
      <h1>Main   heading</h1>
      <p>First paragraph with <b>bold</b> and a <a href="/docs?a=1&amp;b=2">docs link</a>.</p>
      <p>Second<br>line two</p>
      <!-- a comment that should vanish -->
      <h2>List</h2><ul><li>one</li><li>two <a href="https://example.org/x">ext</a></li></ul>
      <noscript>enable JS</noscript>
      <script type="module">alert(1)</script>
      </body></html>`;
    expect(htmlToText(html, 'https://site.test/dir/page')).toBe([
      'Title: The & Page',
      '',
      '# Main heading',
      '',
      'First paragraph with bold and a [docs link](https://site.test/docs?a=1&b=2).',
      '',
      'Second',
      'line two',
      '',
      '## List',
      '',
      '- one',
      '- two [ext](https://example.org/x)',
    ].join('\n'));
  });

  it('drops javascript: links and fragment-only links to plain text', () => {
    expect(htmlToText('<p><a href="javascript:alert(1)">click</a> <a href="#top">top</a></p>', 'https://a.test/')).toBe('click top');
  });

  it('preserves whitespace inside pre', () => {
    expect(htmlToText('<p>code:</p><pre>a  b\n  c</pre><p>after</p>')).toBe('code:\n\na  b\n  c\n\nafter');
  });

  it('shows image alt text and ignores attributes containing >', () => {
    expect(htmlToText('<p><img alt="a cat" src="c.png"> <span title="x > y">text</span></p>')).toBe('[image: a cat] text');
  });

  it('survives unclosed script and truncated markup', () => {
    expect(htmlToText('<p>visible</p><script>never closed')).toBe('visible');
    expect(htmlToText('<p>cut off mid <a href="/x">li')).toBe('cut off mid li');
  });
});

describe('decodeEntities', () => {
  it('decodes named, decimal and hex references and replaces invalid code points with U+FFFD', () => {
    expect(decodeEntities('&lt;a&gt; &quot;q&quot; &#39; &#x1F600; &copy; &unknown; &#0; &#xD800; &#1114112;'))
      .toBe('<a> "q" \' 😀 © &unknown; \ufffd \ufffd \ufffd');
  });
});
