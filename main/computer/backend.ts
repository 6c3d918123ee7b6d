/**
 * The native layer of computer use behind one interface, so the executor (sessions, courtesy, pause,
 * budget) runs unchanged against nut-js on a real display and, in tests, against Xvfb.
 * Key names are nut-js Key enum names (see keymap.ts).
 */
import type { RawImage } from './png.js';

export type MouseButton = 'left' | 'right' | 'middle';
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export interface DesktopBackend {
  /** Size in the coordinate space of pointer input (logical points on a HiDPI Mac). */
  screenSize(): Promise<{ width: number; height: number }>;
  /** The whole screen, possibly at a higher pixel density than screenSize. */
  grab(): Promise<RawImage>;
  cursor(): Promise<{ x: number; y: number }>;
  move(x: number, y: number): Promise<void>;
  pressButton(button: MouseButton): Promise<void>;
  releaseButton(button: MouseButton): Promise<void>;
  scroll(direction: ScrollDirection, amount: number): Promise<void>;
  pressKey(key: string): Promise<void>;
  releaseKey(key: string): Promise<void>;
  /** Text the key map cannot type (non-ASCII): xdotool on X11, the library's own typing elsewhere. */
  typeFallback(text: string): Promise<void>;
  setClipboard(text: string): Promise<void>;
  /** On macOS the paste chord is cmd+v; elsewhere ctrl+v. */
  readonly pasteChord: string[];
  /**
   * `keymap`: type printable ASCII key by key with our own Shift (nut-js drops Shift for symbols on
   * Linux), the rest through typeFallback; `native`: the library types the whole text itself.
   */
  readonly typing: 'keymap' | 'native';
}

/**
 * Wraps a backend so that every input it sends is timestamped (our synthetic input resets the X idle
 * counter, and must never be mistaken for the person) and every key or button still held is known, so
 * /stop, an abort or a deadline can let go of them.
 */
export interface TrackedBackend extends DesktopBackend {
  /** When we last sent input (ms since epoch, the clock given); 0 before the first. */
  lastInputAt(): number;
  /** Releases whatever we still hold down; never throws. */
  releaseAll(): Promise<void>;
}

export function trackInput(backend: DesktopBackend, now: () => number = Date.now): TrackedBackend {
  let last = 0;
  const keys = new Set<string>();
  const buttons = new Set<MouseButton>();
  const input = async <T>(run: () => Promise<T>): Promise<T> => {
    last = now();
    try {
      return await run();
    } finally {
      // Stamped again once the call returns: a slow call (typing) keeps counting as ours until it ends.
      last = now();
    }
  };
  return {
    screenSize: () => backend.screenSize(),
    grab: () => backend.grab(),
    cursor: () => backend.cursor(),
    pasteChord: backend.pasteChord,
    typing: backend.typing,
    move: (x, y) => input(() => backend.move(x, y)),
    pressButton: (button) => input(async () => {
      buttons.add(button);
      await backend.pressButton(button);
    }),
    releaseButton: (button) => input(async () => {
      await backend.releaseButton(button);
      buttons.delete(button);
    }),
    scroll: (direction, amount) => input(() => backend.scroll(direction, amount)),
    pressKey: (key) => input(async () => {
      keys.add(key);
      await backend.pressKey(key);
    }),
    releaseKey: (key) => input(async () => {
      await backend.releaseKey(key);
      keys.delete(key);
    }),
    typeFallback: (text) => input(() => backend.typeFallback(text)),
    setClipboard: (text) => backend.setClipboard(text),
    lastInputAt: () => last,
    async releaseAll() {
      for (const key of [...keys].reverse()) {
        await input(() => backend.releaseKey(key)).catch(() => undefined);
        keys.delete(key);
      }
      for (const button of [...buttons]) {
        await input(() => backend.releaseButton(button)).catch(() => undefined);
        buttons.delete(button);
      }
    },
  };
}
