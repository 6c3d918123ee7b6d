/**
 * The window's two figures (issue 6 item 5), in Debian's Chromium against a real `fermix daemon` and the
 * scripted model server (real OpenAI streaming format):
 *  - first streamed byte → first token painted: a pass-through proxy in front of the model server stamps
 *    the first byte of each streamed answer (Date.now()); the page stamps, with a MutationObserver, the
 *    moment the answer's first text enters the DOM and the next animation frame (the paint). Same machine,
 *    same wall clock.
 *  - renderer memory after a 2,000-message conversation (1,000 turns sent through chat.send): JS heap
 *    used (CDP Performance.getMetrics, after a forced GC), DOM nodes, and the time to open it.
 *  - the window's JavaScript, gzip -9: the initial chunk (what index.html loads before the first paint)
 *    and the lazily loaded chunks (today the highlight.js grammars, fetched at the first code block).
 *    Goals (docs/decisions/0029): initial ≤ 218 KB, i.e. at most +60 KB over the 158.5 KB the window had (at e92ab8d) with
 *    its own markdown code — the price agreed for a maintained renderer; lazy ≤ 80 KB, loaded once, off
 *    the first paint.
 * Needs the built window (`npx electron-vite build`).
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startModelServer } from '../../test/fixtures/model-server/index.js';
import { apiCall, startDaemonProcess, tempHome, waitFor } from '../../test/support/daemon-process.js';
import { requireRendererBuild } from '../../e2e/support/build-output.js';
import { launchChromium } from '../../e2e/support/chromium.js';
import { median, metric, percentile, type Metric } from '../metric.js';

const TURNS_FOR_LATENCY = 15;
const CONVERSATION_TURNS = 1000;

/** Forwards to the model server and records when each streamed answer's first byte came back. */
async function startStampingProxy(target: string) {
  const firstBytes: number[] = [];
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (answer: IncomingMessage) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      let first = true;
      answer.on('data', (chunk: Buffer) => {
        if (first && incoming.url?.endsWith('/chat/completions')) firstBytes.push(Date.now());
        first = false;
        outgoing.write(chunk);
      });
      answer.on('end', () => outgoing.end());
    });
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, firstBytes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Installed in the page before each message: the first assistant text to appear, and the frame after. */
const WATCH_FIRST_TOKEN = `(() => {
  window.__firstDeltaAt = null;
  window.__firstToken = null;
  window.__firstPaint = null;
  const known = new Set(document.querySelectorAll('article.message-assistant'));
  const observer = new MutationObserver(() => {
    for (const article of document.querySelectorAll('article.message-assistant')) {
      if (known.has(article) || !article.textContent.trim()) continue;
      window.__firstToken = Date.now();
      requestAnimationFrame(() => { window.__firstPaint = Date.now(); });
      observer.disconnect();
      return;
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
})()`;

/** Stamps the first chat.delta frame off the event socket, to split the latency into daemon and window. */
const STAMP_SOCKET = `(() => {
  const Native = window.WebSocket;
  window.__firstDeltaAt = null;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (window.__firstDeltaAt === null && typeof event.data === 'string' && event.data.includes('"type":"chat.delta"')) window.__firstDeltaAt = Date.now();
      });
    }
  };
})()`;

/** Gzipped size (KB) of the JS index.html loads (script and modulepreload) and of every other chunk. */
function bundleSizes(index: string): { initialKb: number; lazyKb: number; initial: string[]; lazy: string[] } {
  const html = readFileSync(index, 'utf8');
  const assets = join(index, '..', 'assets');
  const initial = [...html.matchAll(/(?:src|href)="\/?(?:\.\/)?assets\/([^"]+\.js)"/g)].map((match) => match[1]);
  const lazy = readdirSync(assets).filter((name) => name.endsWith('.js') && !initial.includes(name));
  const kb = (names: string[]) => Number((names.reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name)), { level: 9 }).length, 0) / 1024).toFixed(1));
  return { initialKb: kb(initial), lazyKb: kb(lazy), initial, lazy };
}

export async function run(): Promise<Metric[]> {
  const bundle = bundleSizes(requireRendererBuild());
  const model = await startModelServer();
  const proxy = await startStampingProxy(model.baseUrlOpenAI);
  const home = tempHome('fermix-bench-renderer-');
  writeFileSync(join(home, 'config.toml'), `[providers.local]\ntype = "openai-compatible"\nbase_url = "${proxy.url}"\nmodel = "m"\nprimary = true\n`);
  const daemon = await startDaemonProcess(home);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    await context.addInitScript(STAMP_SOCKET);
    const page = await context.newPage();
    await page.goto(daemon.url);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();

    // 1. First streamed byte → first token painted.
    model.setScript(() => ({ text: 'The first words of a streamed answer, and then some more of them.', chunks: 6 }));
    await page.getByRole('button', { name: 'New conversation' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    const toToken: number[] = [];
    const toPaint: number[] = [];
    const toSocket: number[] = [];
    for (let index = 0; index < TURNS_FOR_LATENCY; index += 1) {
      await page.evaluate(WATCH_FIRST_TOKEN);
      const before = proxy.firstBytes.length;
      await box.fill(`question ${index}`);
      await box.press('Enter');
      // A function, not a string: the window's CSP forbids eval, which a string predicate needs.
      await page.waitForFunction(() => (globalThis as { __firstPaint?: number | null }).__firstPaint !== null, undefined, { timeout: 15_000 });
      await page.getByRole('status').filter({ hasText: 'Idle' }).waitFor();
      const { token, paint, socket } = (await page.evaluate('({ token: window.__firstToken, paint: window.__firstPaint, socket: window.__firstDeltaAt })')) as { token: number; paint: number; socket: number };
      const firstByte = proxy.firstBytes[before];
      toSocket.push(socket - firstByte);
      toToken.push(token - firstByte);
      toPaint.push(paint - firstByte);
    }

    // 2. A 2,000-message conversation: 1,000 turns queued at once, answered in order.
    model.setScript((request) => ({ text: `Answer ${request.body.messages.length}: a short reply with **some** markdown and \`code\`.`, chunks: 1 }));
    const created = await apiCall(daemon, 'conversations.create', { title: 'Two thousand messages' });
    const conversationId = created.body.result.id as string;
    const seedStarted = Date.now();
    let last = '';
    for (let index = 0; index < CONVERSATION_TURNS; index += 1) {
      const sent = await apiCall(daemon, 'chat.send', { conversation_id: conversationId, message: `Message ${index + 1} from the benchmark` });
      last = sent.body.result.turn_id;
    }
    await waitFor(async () => (await apiCall(daemon, 'chat.turn', { turn_id: last })).body.result?.status === 'completed', 600_000, 'the 1,000th turn');
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const stored = (await apiCall(daemon, 'conversations.get', { id: conversationId, limit: 5000 })).body.result.messages.length as number;

    const fresh = await context.newPage();
    const cdp = await context.newCDPSession(fresh);
    await cdp.send('Performance.enable');
    await fresh.goto(daemon.base);
    await fresh.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await cdp.send('HeapProfiler.collectGarbage');
    const idle = await heapAndNodes(cdp);
    const openStarted = Date.now();
    await fresh.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /Two thousand messages/ }).click();
    await fresh.getByText(`Message ${CONVERSATION_TURNS} from the benchmark`).waitFor({ timeout: 60_000 });
    const openMs = Date.now() - openStarted;
    await cdp.send('HeapProfiler.collectGarbage');
    const open = await heapAndNodes(cdp);
    // Scroll through the whole conversation and back: rows come and go, memory must not pile up.
    const scrollStarted = Date.now();
    await fresh.evaluate(`(async () => {
      const list = document.querySelector('.virtual-list');
      for (let top = list.scrollHeight; top > 0; top -= list.clientHeight) {
        list.scrollTop = top;
        await new Promise((resolve) => requestAnimationFrame(() => resolve()));
      }
      list.scrollTop = list.scrollHeight;
      await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    })()`);
    const scrollMs = Date.now() - scrollStarted;
    await cdp.send('HeapProfiler.collectGarbage');
    const scrolled = await heapAndNodes(cdp);

    return [
      metric('first_byte_to_first_token_painted_ms', median(toPaint), 'ms', 100, 'lower', `median of ${TURNS_FOR_LATENCY}; p95 ${percentile(toPaint, 95)} ms; the daemon coalesces deltas for up to 25 ms`),
      metric('first_byte_to_first_delta_on_socket_ms', median(toSocket), 'ms', undefined, 'lower', `median of ${TURNS_FOR_LATENCY}: the daemon's share (SDK, loop, 25 ms coalescing, event socket)`),
      metric('first_delta_on_socket_to_token_painted_ms', median(toPaint.map((paint, index) => paint - toSocket[index])), 'ms', 50, 'lower', `median of ${TURNS_FOR_LATENCY}: the window's share (parse, store, React, frame)`),
      metric('first_byte_to_first_token_in_dom_ms', median(toToken), 'ms', undefined, 'lower', `median of ${TURNS_FOR_LATENCY}`),
      metric('renderer_heap_after_2000_messages_mb', open.heapMb, 'MB', 60, 'lower', `${stored} stored messages; idle window ${idle.heapMb} MB; after GC`),
      metric('renderer_heap_after_scrolling_2000_messages_mb', scrolled.heapMb, 'MB', 60, 'lower', `whole conversation scrolled through, ${Math.round(scrollMs)} ms`),
      metric('renderer_dom_nodes_2000_messages', open.nodes, 'nodes', 3000, 'lower', `windowed list; idle window ${idle.nodes} nodes`),
      metric('open_2000_message_conversation_ms', openMs, 'ms', 1500, 'lower', 'click to the newest message shown'),
      metric('renderer_initial_js_gzip_kb', bundle.initialKb, 'KB', 218, 'lower', `gzip -9 of ${bundle.initial.join(', ')}: what the window loads before its first paint`),
      metric('renderer_lazy_js_gzip_kb', bundle.lazyKb, 'KB', 80, 'lower', `gzip -9 of the chunks loaded on demand: ${bundle.lazy.join(', ') || 'none'}`),
      metric('seed_1000_turns_s', seedSeconds, 's', undefined, 'lower', 'daemon + scripted model, for reference'),
    ];
  } finally {
    await browser.close();
    process.kill(daemon.pid, 'SIGTERM');
    await daemon.exited;
    await proxy.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
}

async function heapAndNodes(cdp: { send(method: 'Performance.getMetrics'): Promise<{ metrics: { name: string; value: number }[] }> }) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((each) => each.name === name)?.value ?? 0;
  return { heapMb: Number((value('JSHeapUsedSize') / 2 ** 20).toFixed(1)), nodes: value('Nodes') };
}
