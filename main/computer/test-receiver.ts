/**
 * Test-only: a real X client that receives the agent's input — a headful Chromium window under the
 * suite's Xvfb showing a text field and a pad that log every mouse and wheel event, read back through
 * playwright-core. Also the "person": xdotool moving the pointer from a separate XTest client.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';

const PAGE = `<!doctype html><html><body style="margin:0;background:#fff">
<input id="field" style="position:absolute;left:40px;top:40px;width:700px;height:40px;font-size:20px">
<div id="pad" style="position:absolute;left:40px;top:140px;width:600px;height:300px;background:#ccd;overflow:scroll">
  <div style="height:4000px;width:4000px"></div></div>
<div id="counter" style="position:absolute;left:800px;top:40px;font-size:40px">0</div>
<script>
  window.events = [];
  for (const type of ['mousedown', 'mouseup', 'dblclick', 'wheel']) {
    document.addEventListener(type, (e) => { window.events.push({ type, button: e.button, x: e.clientX, y: e.clientY, dy: e.deltaY || 0 });
      if (type === 'mousedown') document.getElementById('counter').textContent = String(window.events.filter((x) => x.type === 'mousedown').length); }, true);
  }
  document.addEventListener('contextmenu', (e) => e.preventDefault());
  document.addEventListener('mousemove', (e) => { window.lastMove = { x: e.clientX, y: e.clientY, sx: e.screenX, sy: e.screenY }; });
</script></body></html>`;

export interface PageEvent {
  type: string;
  button: number;
  x: number;
  y: number;
  dy: number;
}

export interface Receiver {
  page: Page;
  events(): Promise<PageEvent[]>;
  value(): Promise<string>;
  /** Screen coordinates of a point given in the page's client coordinates. */
  toScreen(x: number, y: number): Promise<{ x: number; y: number }>;
  close(): Promise<void>;
}

export function requireDisplay(): void {
  if (!process.env.DISPLAY) throw new Error('These tests need an X display: run them as `sh ci/with-desktop.sh npx vitest run main/computer` (Xvfb).');
  if (spawnSync('xdotool', ['version']).status !== 0 || spawnSync('xprintidle').status !== 0) {
    throw new Error('xdotool and xprintidle are required (Debian: `apt-get install xdotool xprintidle`).');
  }
}

export async function openReceiver(): Promise<Receiver> {
  const browser: Browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: false,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--window-position=0,0', '--window-size=1280,800'],
  });
  try {
    const page = await browser.newPage({ viewport: null });
    await page.setContent(PAGE);
    let offset: { x: number; y: number } | undefined;
    const receiver: Receiver = {
      page,
      events: () => page.evaluate(() => (globalThis as unknown as { events: PageEvent[] }).events),
      value: () => page.locator('#field').inputValue(),
      async toScreen(x, y) {
        if (!offset) {
          // The window's chrome (tabs, address bar) sits above the page: learn the offset from a real move.
          spawnSync('xdotool', ['mousemove', '400', '400']);
          spawnSync('xdotool', ['mousemove', '401', '401']);
          type Move = { x: number; y: number; sx: number; sy: number };
          const handle = await page.waitForFunction(() => (globalThis as unknown as { lastMove?: Move }).lastMove);
          const move = (await handle.jsonValue()) as Move;
          offset = { x: move.sx - move.x, y: move.sy - move.y };
        }
        return { x: x + offset.x, y: y + offset.y };
      },
      close: () => browser.close(),
    };
    return receiver;
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** The "person": a separate XTest client nudging the pointer every 100 ms until stopped (by its PID). */
export function startPerson(): { stop(): Promise<void> } {
  const child: ChildProcess = spawn('sh', ['-c', 'while :; do xdotool mousemove_relative -- 1 0; sleep 0.1; xdotool mousemove_relative -- -1 0; sleep 0.1; done'], { stdio: 'ignore', detached: true });
  return {
    async stop() {
      if (child.pid !== undefined && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid, 'SIGTERM'); // its own process group: the loop and any xdotool it runs
        await exited;
      }
    },
  };
}
