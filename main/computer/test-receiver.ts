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
<div id="inert" style="position:absolute;left:800px;top:300px;width:300px;height:200px;user-select:none"></div>
<script>
  window.events = [];
  // A mousedown anywhere but #inert repaints the counter, so those clicks change the view and #inert's do not.
  for (const type of ['mousedown', 'mouseup', 'dblclick', 'wheel', 'keydown', 'keyup']) {
    document.addEventListener(type, (e) => { window.events.push({ type, button: e.button ?? -1, x: e.clientX ?? 0, y: e.clientY ?? 0, dy: e.deltaY || 0, key: e.key ?? '' });
      if (type === 'mousedown' && e.target.id !== 'inert') document.getElementById('counter').textContent = String(window.events.filter((x) => x.type === 'mousedown').length); }, true);
  }
  document.addEventListener('contextmenu', (e) => e.preventDefault());
  // Repeated clicks there would count as double and triple clicks, whose default selects text nearby.
  document.getElementById('inert').addEventListener('mousedown', (e) => e.preventDefault());
  // buttons and shiftKey come from the X server's pointer and modifier state at the time of the move.
  document.addEventListener('mousemove', (e) => { window.lastMove = { x: e.clientX, y: e.clientY, sx: e.screenX, sy: e.screenY, buttons: e.buttons, shift: e.shiftKey, ctrl: e.ctrlKey, n: (window.lastMove?.n ?? 0) + 1 }; });
</script></body></html>`;

export interface PageEvent {
  type: string;
  button: number;
  x: number;
  y: number;
  dy: number;
  /** For keydown and keyup. */
  key: string;
}

/** The latest mousemove the page saw: where, and what the X server said was held down then. */
export interface PageMove {
  x: number;
  y: number;
  sx: number;
  sy: number;
  buttons: number;
  shift: boolean;
  ctrl: boolean;
  /** How many moves so far, to wait for a new one. */
  n: number;
}

export interface Receiver {
  page: Page;
  events(): Promise<PageEvent[]>;
  value(): Promise<string>;
  /** Screen coordinates of a point given in the page's client coordinates. */
  toScreen(x: number, y: number): Promise<{ x: number; y: number }>;
  /**
   * Moves the pointer from a separate X client (xdotool) and returns the move as the page saw it: its
   * `buttons` and modifier flags are the X server's state, so anything left held down shows there.
   */
  probeHeld(): Promise<PageMove>;
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
          const handle = await page.waitForFunction(() => (globalThis as unknown as { lastMove?: PageMove }).lastMove);
          const move = (await handle.jsonValue()) as PageMove;
          offset = { x: move.sx - move.x, y: move.sy - move.y };
        }
        return { x: x + offset.x, y: y + offset.y };
      },
      async probeHeld() {
        const seen = await page.evaluate(() => (globalThis as unknown as { lastMove?: PageMove }).lastMove?.n ?? 0);
        // Two moves inside the window (a move to the same spot sends no event).
        spawnSync('xdotool', ['mousemove', '420', '420']);
        spawnSync('xdotool', ['mousemove', '421', '421']);
        const handle = await page.waitForFunction((before) => {
          const move = (globalThis as unknown as { lastMove?: PageMove }).lastMove;
          return move && move.n > before && move.sx === 421 ? move : undefined;
        }, seen);
        return (await handle.jsonValue()) as PageMove;
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
