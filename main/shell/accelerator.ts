// Validation of global-shortcut accelerators before they reach Electron, whose globalShortcut.register
// throws on a malformed string; a bad config value should produce a clear message, not a crash at start-up.

export const DEFAULT_PUSH_TO_TALK = 'CommandOrControl+Shift+Space';

const MODIFIERS = new Set(['command', 'cmd', 'control', 'ctrl', 'commandorcontrol', 'cmdorctrl', 'alt', 'option', 'altgr', 'shift', 'super', 'meta']);
const NAMED_KEYS = new Set([
  'plus', 'space', 'tab', 'capslock', 'numlock', 'scrolllock', 'backspace', 'delete', 'insert', 'return', 'enter',
  'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown', 'escape', 'esc', 'volumeup', 'volumedown',
  'volumemute', 'medianexttrack', 'mediaprevioustrack', 'mediastop', 'mediaplaypause', 'printscreen',
  'num0', 'num1', 'num2', 'num3', 'num4', 'num5', 'num6', 'num7', 'num8', 'num9', 'numdec', 'numadd', 'numsub', 'nummult', 'numdiv',
]);

export type AcceleratorCheck = { ok: true; accelerator: string } | { ok: false; problem: string };

/** Checks Electron's accelerator grammar: zero or more modifiers, then exactly one key. */
export function checkAccelerator(value: string): AcceleratorCheck {
  const parts = value.split('+').map((part) => part.trim());
  if (parts.some((part) => part === '')) return { ok: false, problem: `"${value}" has an empty part (write "Plus" for the + key)` };
  const key = parts[parts.length - 1];
  const modifiers = parts.slice(0, -1);
  const unknownModifier = modifiers.find((modifier) => !MODIFIERS.has(modifier.toLowerCase()));
  if (unknownModifier) return { ok: false, problem: `"${unknownModifier}" is not a modifier (use CommandOrControl, Alt, Shift, Super)` };
  if (MODIFIERS.has(key.toLowerCase())) return { ok: false, problem: `"${value}" has no key after its modifiers` };
  const isKey = /^[A-Za-z0-9]$/.test(key) || /^F([1-9]|1\d|2[0-4])$/i.test(key) || NAMED_KEYS.has(key.toLowerCase()) || /^[`\-=[\]\\;',./~!@#$%^&*()_:<>?{}|"]$/.test(key);
  if (!isKey) return { ok: false, problem: `"${key}" is not a key Electron knows` };
  return { ok: true, accelerator: value };
}
