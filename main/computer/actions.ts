/**
 * One computer_use action on a tracked backend. Gates (attended origin, pause, strict access, seat,
 * budget, courtesy) are the runtime's; this file only turns a valid action into input and answers.
 * `step()` runs before every primitive so a /pause, /stop or deadline lands between two keystrokes,
 * never after the whole text.
 */
import type { z } from 'zod';
import { FermixError } from '../core/errors.js';
import type { computerUseInput } from '../tools/computer-use.js';
import type { MouseButton, TrackedBackend } from './backend.js';
import { modifierKey, parseChord, planTyping } from './keymap.js';
import type { Rect } from './png.js';
import { checkRegion, frameFingerprint, fromScreen, shotSize, takeShot, toScreen, type Shot } from './screen.js';

export type ComputerArgs = z.output<ReturnType<typeof computerUseInput>>;

export interface ActionContext {
  backend: TrackedBackend;
  /** Throws when the action must stop (paused, aborted, past its deadline). */
  step(): void;
  /** The latest screenshot of the session, for wait_for_change's baseline. */
  latestShot?: Shot;
  now: () => number;
}

export interface ActionOutcome {
  /** What happened, in one line for the model. */
  summary: string;
  data: Record<string, unknown>;
  /** Set by screenshot and wait_for_change; mutating actions get theirs from the runtime once settled. */
  shot?: Shot;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function need<T>(value: T | undefined, what: string, action: string): T {
  if (value === undefined) {
    throw new FermixError({ code: 'invalid action', message: `Action ${action} needs ${what}.`, hint: `Call computer_use again with ${what}, e.g. {"action":"${action}", …}.`, data: { action } });
  }
  return value;
}

async function view(backend: TrackedBackend, region: Rect | undefined) {
  const screen = await backend.screenSize();
  const rect = checkRegion(region, screen);
  return { view: rect, ...shotSize(rect.w, rect.h) };
}

/** Pauses between the steps of a drag: drags that jump in one move are missed by many toolkits. */
const DRAG_STEPS = 12;
const DRAG_STEP_MS = 15;

export async function performAction(args: ComputerArgs, context: ActionContext): Promise<ActionOutcome> {
  const { backend, step } = context;
  const action = args.action;
  const geometry = await view(backend, args.region);
  const point = (x: number | undefined, y: number | undefined) => toScreen(geometry, need(x, 'x and y', action), need(y, 'x and y', action));

  const withModifiers = async (run: () => Promise<void>) => {
    const held = (args.modifiers ?? []).map(modifierKey);
    for (const key of held) {
      step();
      await backend.pressKey(key);
    }
    try {
      await run();
    } finally {
      for (const key of [...held].reverse()) await backend.releaseKey(key);
    }
  };
  const click = async (button: MouseButton, count: number) => {
    const target = point(args.x, args.y);
    step();
    await backend.move(target.x, target.y);
    await withModifiers(async () => {
      for (let i = 0; i < count; i += 1) {
        step();
        await backend.pressButton(button);
        await backend.releaseButton(button);
      }
    });
    return { summary: `${action} at ${args.x},${args.y}`, data: { screen_x: target.x, screen_y: target.y } };
  };

  switch (action) {
    case 'screenshot': {
      const shot = await takeShot(backend, geometry.view, context.now());
      return { summary: `screenshot ${shot.width}×${shot.height} of the ${geometry.view.w}×${geometry.view.h} area at ${geometry.view.x},${geometry.view.y}`, data: { width: shot.width, height: shot.height }, shot };
    }
    case 'cursor_position': {
      const position = await backend.cursor();
      const mapped = fromScreen(geometry, position.x, position.y);
      return { summary: `cursor at ${mapped.x},${mapped.y}`, data: { x: mapped.x, y: mapped.y, screen_x: position.x, screen_y: position.y } };
    }
    case 'mouse_move': {
      const target = point(args.x, args.y);
      step();
      await backend.move(target.x, target.y);
      return { summary: `pointer moved to ${args.x},${args.y}`, data: { screen_x: target.x, screen_y: target.y } };
    }
    case 'left_click':
      return click('left', 1);
    case 'right_click':
      return click('right', 1);
    case 'middle_click':
      return click('middle', 1);
    case 'double_click':
      return click('left', 2);
    case 'left_click_drag': {
      const from = need(args.from, 'from and to', action);
      const to = need(args.to, 'from and to', action);
      const start = toScreen(geometry, from.x, from.y);
      const end = toScreen(geometry, to.x, to.y);
      step();
      await backend.move(start.x, start.y);
      await withModifiers(async () => {
        // A /stop or deadline during the move to the start must not be followed by a press.
        step();
        await backend.pressButton('left');
        try {
          for (let i = 1; i <= DRAG_STEPS; i += 1) {
            step();
            await sleep(DRAG_STEP_MS);
            await backend.move(start.x + ((end.x - start.x) * i) / DRAG_STEPS, start.y + ((end.y - start.y) * i) / DRAG_STEPS);
          }
        } finally {
          await backend.releaseButton('left');
        }
      });
      return { summary: `dragged from ${from.x},${from.y} to ${to.x},${to.y}`, data: { from: start, to: end } };
    }
    case 'scroll': {
      const direction = need(args.direction, 'direction (up, down, left, right)', action);
      const amount = args.amount ?? 3;
      if (args.x !== undefined || args.y !== undefined) {
        const target = point(args.x, args.y);
        step();
        await backend.move(target.x, target.y);
      }
      step();
      await backend.scroll(direction, amount);
      return { summary: `scrolled ${direction} by ${amount}`, data: { direction, amount } };
    }
    case 'type': {
      const text = need(args.text, 'text', action);
      await typeText(backend, text, step);
      return { summary: `typed ${[...text].length} characters`, data: { characters: [...text].length } };
    }
    case 'key': {
      const keys = parseChord(need(args.chord, 'chord (e.g. "ctrl+s")', action));
      await pressChord(backend, keys, step);
      return { summary: `pressed ${args.chord}`, data: { keys } };
    }
    case 'paste': {
      const text = need(args.text, 'text', action);
      step();
      await backend.setClipboard(text);
      await pressChord(backend, backend.pasteChord, step);
      return { summary: `pasted ${[...text].length} characters through the clipboard`, data: { characters: [...text].length } };
    }
    case 'wait': {
      const ms = args.ms ?? 1000;
      const until = context.now() + ms;
      while (context.now() < until) {
        step();
        await sleep(Math.min(100, until - context.now()));
      }
      return { summary: `waited ${ms} ms`, data: { ms } };
    }
    case 'wait_for_change': {
      const baseline = context.latestShot?.fingerprint ?? (await frameFingerprint(backend));
      const started = context.now();
      while (context.now() - started < args.timeout_ms) {
        step();
        await sleep(args.poll_ms);
        if ((await frameFingerprint(backend)) !== baseline) {
          const shot = await takeShot(backend, geometry.view, context.now());
          return { summary: `the screen changed after ${context.now() - started} ms`, data: { changed: true, waited_ms: context.now() - started }, shot };
        }
      }
      return { summary: `no change within ${args.timeout_ms} ms`, data: { changed: false, waited_ms: context.now() - started } };
    }
  }
}

async function pressChord(backend: TrackedBackend, keys: string[], step: () => void) {
  const pressed: string[] = [];
  try {
    for (const key of keys) {
      step();
      await backend.pressKey(key);
      pressed.push(key);
    }
  } finally {
    for (const key of pressed.reverse()) await backend.releaseKey(key);
  }
}

async function typeText(backend: TrackedBackend, text: string, step: () => void) {
  if (backend.typing === 'native') {
    step();
    await backend.typeFallback(text);
    return;
  }
  for (const part of planTyping(text)) {
    if (part.kind === 'fallback') {
      step();
      await backend.typeFallback(part.text);
      continue;
    }
    for (const stroke of part.strokes) {
      step();
      await pressChord(backend, stroke.shift ? ['LeftShift', stroke.key] : [stroke.key], () => undefined);
    }
  }
}
