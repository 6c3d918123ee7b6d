/**
 * Text and chords → key names of nut-js's Key enum (a US 105-key layout), kept as strings so this file
 * needs no native import. Why: nut-js 4.2.6's `keyboard.type` drops Shift for symbols on Linux (STACK.md),
 * so `!` arrives as `1`. We press Shift with the base key ourselves; anything outside printable ASCII
 * goes to the fallback (xdotool on X11), which maps keysyms itself.
 */
import { FermixError } from '../core/errors.js';

export interface KeyStroke {
  key: string;
  shift: boolean;
}

const UNSHIFTED: Record<string, string> = {
  '`': 'Grave', '-': 'Minus', '=': 'Equal', '[': 'LeftBracket', ']': 'RightBracket', '\\': 'Backslash',
  ';': 'Semicolon', "'": 'Quote', ',': 'Comma', '.': 'Period', '/': 'Slash', ' ': 'Space', '\n': 'Enter', '\t': 'Tab',
};

/** US layout: each shifted symbol and the key it shares. */
const SHIFTED: Record<string, string> = {
  '~': 'Grave', '!': 'Num1', '@': 'Num2', '#': 'Num3', $: 'Num4', '%': 'Num5', '^': 'Num6', '&': 'Num7', '*': 'Num8',
  '(': 'Num9', ')': 'Num0', _: 'Minus', '+': 'Equal', '{': 'LeftBracket', '}': 'RightBracket', '|': 'Backslash',
  ':': 'Semicolon', '"': 'Quote', '<': 'Comma', '>': 'Period', '?': 'Slash',
};

/** The stroke for one character, or undefined when only the fallback can type it. */
export function strokeFor(char: string): KeyStroke | undefined {
  if (/^[a-z]$/.test(char)) return { key: char.toUpperCase(), shift: false };
  if (/^[A-Z]$/.test(char)) return { key: char, shift: true };
  if (/^[0-9]$/.test(char)) return { key: `Num${char}`, shift: false };
  if (char in UNSHIFTED) return { key: UNSHIFTED[char], shift: false };
  if (char in SHIFTED) return { key: SHIFTED[char], shift: true };
  return undefined;
}

/** Splits text into runs the key map can type and runs for the fallback, in order. */
export function planTyping(text: string): ({ kind: 'keys'; strokes: KeyStroke[] } | { kind: 'fallback'; text: string })[] {
  const plan: ({ kind: 'keys'; strokes: KeyStroke[] } | { kind: 'fallback'; text: string })[] = [];
  for (const char of text.replace(/\r\n?/g, '\n')) {
    const stroke = strokeFor(char);
    const last = plan.at(-1);
    if (stroke) {
      if (last?.kind === 'keys') last.strokes.push(stroke);
      else plan.push({ kind: 'keys', strokes: [stroke] });
    } else if (last?.kind === 'fallback') last.text += char;
    else plan.push({ kind: 'fallback', text: char });
  }
  return plan;
}

const MODIFIERS: Record<string, string> = {
  ctrl: 'LeftControl', control: 'LeftControl', alt: 'LeftAlt', option: 'LeftAlt', shift: 'LeftShift',
  cmd: 'LeftCmd', command: 'LeftCmd', super: 'LeftSuper', win: 'LeftSuper', meta: 'LeftMeta',
};

const NAMED: Record<string, string> = {
  enter: 'Enter', return: 'Return', tab: 'Tab', space: 'Space', escape: 'Escape', esc: 'Escape', backspace: 'Backspace',
  delete: 'Delete', del: 'Delete', insert: 'Insert', home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown',
  up: 'Up', down: 'Down', left: 'Left', right: 'Right', print: 'Print', menu: 'Menu', capslock: 'CapsLock',
  plus: 'Equal', minus: 'Minus',
};

/** The key names a modifier name stands for (for click modifiers). */
export function modifierKey(name: string): string {
  const key = MODIFIERS[name.toLowerCase()];
  if (!key) throw invalidChord(name, `"${name}" is not a modifier`);
  return key;
}

/** "ctrl+shift+t" → ['LeftControl', 'LeftShift', 'T']; f1–f24, arrows and named keys as in the enum. */
export function parseChord(chord: string): string[] {
  const parts = chord.split('+').map((part) => part.trim()).filter((part) => part.length > 0);
  if (parts.length === 0) throw invalidChord(chord, 'the chord is empty');
  return parts.map((part, index) => {
    const lower = part.toLowerCase();
    if (index < parts.length - 1 || MODIFIERS[lower]) {
      const modifier = MODIFIERS[lower];
      if (!modifier) throw invalidChord(chord, `"${part}" is not a modifier (ctrl, alt, shift, cmd, super)`);
      return modifier;
    }
    const fn = /^f([1-9]|1[0-9]|2[0-4])$/.exec(lower);
    if (fn) return `F${fn[1]}`;
    if (NAMED[lower]) return NAMED[lower];
    if (part.length === 1) {
      const stroke = strokeFor(part.toLowerCase());
      // A shifted symbol as the key of a chord ("ctrl+!") is ambiguous across layouts: ask for the base key.
      if (stroke && !SHIFTED[part]) return stroke.key;
    }
    throw invalidChord(chord, `"${part}" is not a key name`);
  });
}

function invalidChord(chord: string, why: string): FermixError {
  return new FermixError({
    code: 'invalid action',
    message: `The key chord "${chord}" cannot be pressed: ${why}.`,
    hint: 'Write chords like "ctrl+s", "cmd+shift+t", "enter" or "f5"; type text with action "type".',
    data: { chord },
  });
}
