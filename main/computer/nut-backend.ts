/**
 * The nut-js adapter (@nut-tree-fork/nut-js 4.2.6), imported lazily: the library loads a native addon
 * and opens the display, which a daemon with computer use off must never pay for or fail on.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { FermixError } from '../core/errors.js';
import type { DesktopBackend, MouseButton } from './backend.js';

const run = promisify(execFile);

type Nut = typeof import('@nut-tree-fork/nut-js');

/** Why the native layer cannot work here, or undefined when it may (a display exists, not Wayland). */
export function displayProblem(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | undefined {
  if (platform === 'linux') {
    // Wayland refuses synthetic input and screen capture to X clients (reference §2.11: unsupported).
    if (env.XDG_SESSION_TYPE === 'wayland' || (env.WAYLAND_DISPLAY ?? '') !== '') return 'this is a Wayland session, which computer use does not support';
    if ((env.DISPLAY ?? '') === '') return 'no X display ($DISPLAY is not set)';
    return undefined;
  }
  if (platform === 'darwin' || platform === 'win32') return undefined;
  return `computer use does not support ${platform}`;
}

export interface NutBackendOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

/** Loads nut-js and proves it can reach the display (one size query); throws `not active` if not. */
export async function createNutBackend(options: NutBackendOptions = {}): Promise<DesktopBackend> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const problem = displayProblem(platform, env);
  if (problem) throw notActive(problem);
  let nut: Nut;
  try {
    nut = await import('@nut-tree-fork/nut-js');
    await nut.screen.width();
  } catch (error) {
    throw notActive(`the desktop library did not load (${(error as Error).message.split('\n')[0]})`, error);
  }
  const { mouse, keyboard, screen, clipboard, Button, Key } = nut;
  // The library's own pacing (100 ms between steps by default) is replaced by ours: we wait for the
  // view to settle after each action instead.
  mouse.config.autoDelayMs = 0;
  keyboard.config.autoDelayMs = 0;
  const button = (name: MouseButton) => (name === 'left' ? Button.LEFT : name === 'right' ? Button.RIGHT : Button.MIDDLE);
  const key = (name: string) => {
    const value = (Key as unknown as Record<string, number>)[name];
    if (value === undefined) throw new FermixError({ code: 'invalid action', message: `There is no key named ${name}.`, hint: 'Use a chord such as "ctrl+s" or "enter".' });
    return value as unknown as (typeof Key)[keyof typeof Key];
  };
  return {
    pasteChord: platform === 'darwin' ? ['LeftCmd', 'V'] : ['LeftControl', 'V'],
    typing: platform === 'linux' ? 'keymap' : 'native',
    async screenSize() {
      return { width: await screen.width(), height: await screen.height() };
    },
    async grab() {
      const image = await screen.grab();
      // colorMode 0 is BGR: libnut hands over the framebuffer's native byte order.
      return { width: image.width, height: image.height, channels: image.channels, bgr: Number(image.colorMode) === 0, data: image.data };
    },
    async cursor() {
      const point = await mouse.getPosition();
      return { x: point.x, y: point.y };
    },
    async move(x, y) {
      await mouse.setPosition(new nut.Point(Math.round(x), Math.round(y)));
    },
    async pressButton(name) {
      await mouse.pressButton(button(name));
    },
    async releaseButton(name) {
      await mouse.releaseButton(button(name));
    },
    async scroll(direction, amount) {
      if (direction === 'up') await mouse.scrollUp(amount);
      else if (direction === 'down') await mouse.scrollDown(amount);
      else if (direction === 'left') await mouse.scrollLeft(amount);
      else await mouse.scrollRight(amount);
    },
    async pressKey(name) {
      await keyboard.pressKey(key(name));
    },
    async releaseKey(name) {
      await keyboard.releaseKey(key(name));
    },
    async typeFallback(text) {
      if (platform !== 'linux') {
        await keyboard.type(text);
        return;
      }
      try {
        // xdotool remaps a spare keycode to each keysym, so it types characters the layout lacks.
        await run('xdotool', ['type', '--delay', '12', '--', text], { timeout: 25_000, env });
      } catch (error) {
        throw new FermixError({
          code: 'invalid action',
          message: 'Characters outside plain ASCII could not be typed because xdotool is not available.',
          hint: 'Install xdotool (`sudo apt-get install xdotool`), or use action "paste" for this text.',
          cause: error,
        });
      }
    },
    async setClipboard(text) {
      await clipboard.setContent(text);
    },
  };
}

function notActive(why: string, cause?: unknown): FermixError {
  return new FermixError({
    code: 'not active',
    message: `Computer use cannot run here: ${why}.`,
    hint: 'Run `fermix doctor` and read the "computer use" row; computer use needs an X11 session on Linux, or macOS or Windows.',
    cause,
  });
}
