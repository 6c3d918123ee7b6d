// web_fetch's readable text on the page shapes it meets in the wild (built after real sites' markup):
// a news article wrapped in navigation, cookie banner, related links and comments; a documentation page
// with a sidebar and code; a table-heavy listing; and a single-page app that is mostly script.
import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-to-text.js';

const chrome = `
  <header class="site-header"><a href="/" class="logo">Daily Planet</a>
    <nav class="main-nav"><ul><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>
  <div class="cookie-banner" id="cookie-consent">We use cookies to improve your experience. <button>Accept all</button></div>`;

const paragraph = (n: number) => `<p>Paragraph ${n} of the report explains, in plain words and with enough detail to read as an article, how the council voted on the new harbour bridge and what it will cost the city over the next decade.</p>`;

describe('htmlToText on real-world page shapes', () => {
  it('keeps an article and drops its navigation, banner, related links and comments', () => {
    const html = `<!doctype html><html lang="en"><head><title>Bridge vote passes | Daily Planet</title>
      <meta property="og:title" content="Bridge vote passes"><script>window.dataLayer=[];</script></head><body>${chrome}
      <main><article class="story"><h1>Bridge vote passes</h1><p class="byline">By Lois Lane</p>
        ${[1, 2, 3, 4, 5].map(paragraph).join('\n')}
        <figure><img src="/bridge.jpg" alt="The harbour at dusk"><figcaption>The harbour at dusk.</figcaption></figure>
        <p>Read the <a href="/docs/budget.pdf">full budget</a> for details.</p></article>
      <aside class="sidebar related"><h3>Related</h3><ul><li><a href="/x">Celebrity chef opens diner</a></li><li><a href="/y">Ten best beaches</a></li></ul></aside>
      <section id="comments" class="comments"><h3>Comments</h3><div class="comment">First!!!</div></section></main>
      <footer class="site-footer">© Daily Planet · <a href="/privacy">Privacy</a></footer></body></html>`;
    const text = htmlToText(html, 'https://planet.test/news/bridge');
    expect(text.startsWith('Title: Bridge vote passes | Daily Planet\n\n')).toBe(true);
    for (const n of [1, 2, 3, 4, 5]) expect(text).toContain(`Paragraph ${n} of the report`);
    expect(text).toContain('[full budget](https://planet.test/docs/budget.pdf)');
    expect(text).toContain('[image: The harbour at dusk]');
    for (const noise of ['We use cookies', 'Accept all', 'Celebrity chef', 'First!!!', 'dataLayer', 'Sport']) expect(text).not.toContain(noise);
  });

  it('keeps a documentation page: headings at their levels, code verbatim, the sidebar gone', () => {
    const html = `<html><head><title>Configuration — Fermix docs</title></head><body>
      <div class="docs-layout"><nav class="toc sidebar"><a href="/docs/install">Install</a><a href="/docs/config">Configuration</a><a href="/docs/faq">FAQ</a></nav>
      <div class="content" role="main"><h1>Configuration</h1>
        <p>Fermix reads its settings from config.toml in the home folder. Every key below can also be changed in the window's Settings screen, and the daemon validates the whole file when it starts.</p>
        <h2>The sandbox section</h2>
        <p>The sandbox decides which folders tools may read and write. Its mode is one of strict, workspace or open; strict allows only the workspace and the folders you granted.</p>
        <pre><code>[sandbox]
mode = "strict"
grants = ["~/Projects"]</code></pre>
        <h3>Granting a folder</h3><p>Run <code>fermix grant path ~/Projects</code> to add a folder to the list without editing the file by hand.</p>
      </div></div></body></html>`;
    const text = htmlToText(html, 'https://docs.test/config');
    expect(text).toContain('# Configuration\n');
    expect(text).toContain('## The sandbox section');
    expect(text).toContain('### Granting a folder');
    expect(text).toContain('[sandbox]\nmode = "strict"\ngrants = ["~/Projects"]');
    expect(text).toContain('fermix grant path ~/Projects');
    expect(text).not.toContain('FAQ');
  });

  it('keeps a table-heavy page as rows whose cells stay together', () => {
    const rows = [['Lisbon', '545,796', '100.05'], ['Porto', '231,800', '41.42'], ['Braga', '193,333', '183.40'], ['Coimbra', '140,796', '319.40']];
    const html = `<html><head><title>Cities of Portugal</title></head><body><nav><a href="/">Home</a></nav><h1>Cities of Portugal</h1>
      <table><thead><tr><th>City</th><th>Population</th><th>Area (km²)</th></tr></thead>
      <tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('')}</tbody></table></body></html>`;
    const lines = htmlToText(html).split('\n');
    const header = lines.find((line) => line.includes('City'));
    expect(header).toMatch(/City\s+Population\s+Area \(km²\)/);
    for (const row of rows) expect(lines.some((line) => new RegExp(row.map((cell) => cell.replace(/[.()]/g, '\\$&')).join('\\s+')).test(line))).toBe(true);
    expect(lines.join('\n')).not.toContain('Home');
  });

  it('reduces a page that is mostly script to its title and the little text it has', () => {
    const bundle = `!function(){var e={};${'e.a=function(t){return t*2};'.repeat(2_000)}}();`;
    const html = `<!doctype html><html><head><title>Dashboard</title><link rel="stylesheet" href="/app.css"><script>${bundle}</script></head>
      <body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>
      <script type="application/json" id="__DATA__">{"user":"secret-token-123"}</script><script src="/static/main.js"></script><script>${bundle}</script></body></html>`;
    expect(htmlToText(html)).toBe('Title: Dashboard');
  });
});
