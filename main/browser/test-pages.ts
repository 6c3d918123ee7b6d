/**
 * Test-only: a small site on 127.0.0.1 for the browser tests — a form that echoes what was submitted, an
 * upload form, a file download, and pages whose subrequests aim at refused addresses. Imported only by
 * *.test.ts files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CHROMIUM = '/usr/bin/chromium';

/** Fails (never skips) when the machine has no Chromium, saying how to get one. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}: run \`apt-get install chromium\`.`);
}

export interface TestSite {
  origin: string;
  port: number;
  /** Requests the server saw, by path. */
  hits: string[];
  close(): Promise<void>;
}

const html = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

export async function startTestSite(options: { forbiddenPort?: () => number } = {}): Promise<TestSite> {
  const hits: string[] = [];
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    hits.push(url.pathname);
    const send = (body: string, type = 'text/html') => {
      response.writeHead(200, { 'content-type': `${type}; charset=utf-8` });
      response.end(body);
    };
    switch (url.pathname) {
      case '/form':
        return send(html('Booking', '<h1>Book a trip</h1><form action="/result" method="get"><label>City <input name="city"></label><label>Password <input type="password" name="pw"></label><button type="submit">Search</button></form>'));
      case '/result':
        return send(html('Result', `<h1>Results</h1><p id="out">Trips to ${escape(url.searchParams.get('city') ?? '')}</p>`));
      case '/upload':
        return send(html('Upload', '<form action="/uploaded" method="post" enctype="multipart/form-data"><label>File <input type="file" name="doc"></label><button>Send</button></form>'));
      case '/uploaded': {
        const body = await readBody(request);
        return send(html('Uploaded', `<p id="size">received ${body.length} bytes; contains marker: ${body.includes('UPLOAD-MARKER') ? 'yes' : 'no'}</p>`));
      }
      case '/files':
        return send(html('Files', '<a href="/report.csv">Get the report</a>'));
      case '/report.csv':
        response.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' });
        return response.end('city,trips\nLisbon,3\n');
      case '/redirect-metadata':
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return response.end();
      case '/sneaky':
        // Subrequests the page makes on its own: both must be refused by the route guard.
        return send(html('Sneaky', `<p>hi</p><img src="http://169.254.169.254/latest/meta-data/x.png"><script>
          window.daemonResult = fetch('http://127.0.0.1:${options.forbiddenPort?.() ?? 9}/').then(() => 'reached', () => 'refused');
        </script>`));
      case '/tall':
        return send(html('Tall', '<div style="height:9000px;background:linear-gradient(red,blue)">tall</div>'));
      case '/chatty':
        return send(html('Chatty', `<script>console.log('hello from the page'); localStorage.setItem('seen', 'yes');</script><button onclick="document.title = confirm('Really?') ? 'yes' : 'no'">Ask</button>`));
      case '/interact':
        // hover, press, wait and click_coords: each leaves its trace in #log (the first hover only: Playwright's
        // hover may enter twice); #later and the URL change
        // only once "Start" is clicked, 400 ms after.
        return send(html('Interact', `<p id="log"></p>
          <div id="hoverable" style="width:200px;height:40px;background:#eef" onmouseenter="if (!this.dataset.hovered) { this.dataset.hovered = 'yes'; log('hover'); }">Hover me</div>
          <label>Keys <input id="keys" onkeydown="log('key ' + event.key)"></label>
          <button id="start" onclick="setTimeout(() => { const p = document.createElement('p'); p.id = 'later'; p.textContent = 'Ready now'; document.body.append(p); history.pushState(null, '', '/interact/done'); }, 400)">Start</button>
          <div id="pad" style="position:absolute;left:400px;top:300px;width:200px;height:100px;background:#fee" onclick="log('click ' + event.offsetX + ',' + event.offsetY + ' button ' + event.button)" onauxclick="log('click ' + event.offsetX + ',' + event.offsetY + ' button ' + event.button)"></div>
          <script>function log(line) { document.getElementById('log').textContent += line + ';'; } document.addEventListener('keydown', (e) => { if (e.target.id !== 'keys') log('page key ' + e.key); });</script>`));
      case '/popup':
        return send(html('Popup', '<a href="/form" target="_blank">new window</a>'));
      default:
        return send(html(`Page ${url.pathname}`, `<h1>Page ${escape(url.pathname)}</h1>`));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function escape(text: string): string {
  return text.replace(/[&<>"]/gu, (char) => `&#${char.charCodeAt(0)};`);
}

/** Chromium processes (any type) whose command line names this profile directory. */
export function chromiumProcessesFor(userDataDir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      // NULs or spaces: Chromium may rewrite its process title into one string (launcher.ts browserPid).
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split(/[\0 ]/u).includes(`--user-data-dir=${userDataDir}`)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}
