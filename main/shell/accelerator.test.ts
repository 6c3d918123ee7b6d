import { describe, expect, it } from 'vitest';
import { checkAccelerator, DEFAULT_PUSH_TO_TALK } from './accelerator.js';

describe('push-to-talk accelerator', () => {
  it('accepts the default and other well-formed accelerators', () => {
    for (const value of [DEFAULT_PUSH_TO_TALK, 'Alt+F12', 'CmdOrCtrl+Shift+K', 'Super+Space', 'Control+Plus', 'F9', 'Shift+/']) {
      expect(checkAccelerator(value), value).toEqual({ ok: true, accelerator: value });
    }
  });

  it('explains what is wrong with a malformed one', () => {
    expect(checkAccelerator('Ctrl+Shift')).toMatchObject({ ok: false, problem: expect.stringContaining('no key') });
    expect(checkAccelerator('Hyper+K')).toMatchObject({ ok: false, problem: expect.stringContaining('"Hyper" is not a modifier') });
    expect(checkAccelerator('Ctrl++')).toMatchObject({ ok: false, problem: expect.stringContaining('Plus') });
    expect(checkAccelerator('Ctrl+Banana')).toMatchObject({ ok: false, problem: expect.stringContaining('"Banana"') });
    expect(checkAccelerator('')).toMatchObject({ ok: false });
  });
});
