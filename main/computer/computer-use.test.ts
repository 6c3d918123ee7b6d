// computer_use against the real desktop stack: nut-js on the suite's Xvfb, a headful Chromium window as
// the receiving X client, xprintidle for idle time and xdotool as the person. Run under ci/with-desktop.sh.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExecutionContext } from '../core/capabilities/capability.js';
import { isFermixError } from '../core/errors.js';
import { createComputerUseControl } from '../daemon/computer-handlers.js';
import { trackInput, type DesktopBackend, type TrackedBackend } from './backend.js';
import { awaitPersonIdle, createXprintidleProbe, type IdleProbe } from './idle.js';
import { createNutBackend } from './nut-backend.js';
import { waitForSettle } from './screen.js';
import { computerUseInput } from '../tools/computer-use.js';
import { createComputerUseRuntime, type ComputerUseRuntime, type ComputerUseRuntimeOptions } from './runtime.js';
import { openReceiver, requireDisplay, startPerson, type Receiver } from './test-receiver.js';

requireDisplay();

const SYMBOLS = '!@#$%^&*()_+{}|:"<>?~';
let raw: DesktopBackend;
let backend: TrackedBackend;
let probe: IdleProbe;
let receiver: Receiver;

const context = (overrides: Partial<ExecutionContext> = {}): ExecutionContext => ({
  trust: 'operator', origin: 'chat', interactive: true, conversationId: 'c1', signal: new AbortController().signal, services: {}, ...overrides,
});

interface RuntimeChoice {
  mode?: 'strict' | 'standard';
  limits?: ComputerUseRuntimeOptions['limits'];
  control?: ReturnType<typeof createComputerUseControl>;
  backend?: TrackedBackend;
}

function runtime(options: RuntimeChoice = {}): ComputerUseRuntime {
  return createComputerUseRuntime({
    backend: options.backend ?? backend, idle: probe, control: options.control ?? createComputerUseControl(false), enabled: () => true,
    accessMode: () => options.mode ?? 'standard', ...(options.limits ? { limits: options.limits } : {}),
  });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; hint: string }> {
  try {
    await promise;
  } catch (error) {
    if (isFermixError(error)) return { code: error.code, message: error.message, hint: error.hint };
    throw error;
  }
  throw new Error('expected a refusal');
}

const mousedowns = async () => (await receiver.events()).filter((event) => event.type === 'mousedown').length;

beforeAll(async () => {
  raw = await createNutBackend();
  backend = trackInput(raw);
  probe = createXprintidleProbe();
  receiver = await openReceiver();
}, 30_000);

afterAll(async () => {
  await receiver?.close();
});

describe('idle detection (X11)', () => {
  it('sees a 1.2 s gap in milliseconds', async () => {
    spawnSync('xdotool', ['mousemove_relative', '--', '2', '0']);
    expect(await probe.read()).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // Whole seconds (powerMonitor) would read 1000 here.
    expect(await probe.read()).toBeGreaterThanOrEqual(1190);
  });

  it('does not mistake our own input for the person', async () => {
    await backend.move(300, 300);
    expect(await probe.read()).toBeLessThan(500);
    const ours = await awaitPersonIdle({ probe, lastOwnInputAt: () => backend.lastInputAt(), maxWaitMs: 0 });
    expect(ours.outcome).toBe('idle');
    // The same moment, had we not remembered our input, reads as an active person.
    const forgetful = await awaitPersonIdle({ probe, lastOwnInputAt: () => 0, maxWaitMs: 0 });
    expect(forgetful.outcome).toBe('active');
  });
});

describe('actions on a real X client', () => {
  it('clicks a text field and types every symbol exactly, with a screenshot after', async () => {
    const cu = runtime();
    const shot = await cu.execute({ action: 'screenshot' }, context());
    expect(shot.images?.[0].mimeType).toBe('image/png');
    expect(Buffer.from(shot.images![0].base64, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(shot.data).toMatchObject({ screenshot: { width: 1280, height: 800 } });
    const field = await receiver.toScreen(200, 60);
    const before = await mousedowns();
    const clicked = await cu.execute({ action: 'left_click', x: field.x, y: field.y }, context());
    expect(await mousedowns()).toBe(before + 1);
    expect(clicked.images).toHaveLength(1);
    const text = `Ab9 ${SYMBOLS}-=[]\\;',./\``;
    await cu.execute({ action: 'type', text }, context());
    expect(await receiver.value()).toBe(text);
    await cu.execute({ action: 'key', chord: 'ctrl+a' }, context());
    await cu.execute({ action: 'paste', text: 'pasted é ✓' }, context());
    expect(await receiver.value()).toBe('pasted é ✓');
    const cursor = await cu.execute({ action: 'cursor_position' }, context());
    expect(cursor.data).toMatchObject({ x: field.x, y: field.y });
  });

  it('right, middle and double clicks, scrolls and drags reach the window', async () => {
    const cu = runtime();
    const pad = await receiver.toScreen(300, 290);
    const start = (await receiver.events()).length;
    // The drag first: a middle click on a scrollable area may start Chromium's autoscroll mode.
    await cu.execute({ action: 'left_click_drag', from: { x: pad.x - 100, y: pad.y }, to: { x: pad.x + 100, y: pad.y + 50 } }, context());
    await cu.execute({ action: 'scroll', x: pad.x, y: pad.y, direction: 'down', amount: 2 }, context());
    await cu.execute({ action: 'right_click', x: pad.x, y: pad.y }, context());
    await cu.execute({ action: 'double_click', x: pad.x, y: pad.y }, context());
    await cu.execute({ action: 'middle_click', x: pad.x, y: pad.y }, context());
    const events = (await receiver.events()).slice(start);
    const downs = events.filter((event) => event.type === 'mousedown');
    expect(downs.map((event) => event.button)).toEqual([0, 2, 0, 0, 1]);
    expect(events.some((event) => event.type === 'dblclick')).toBe(true);
    expect(events.some((event) => event.type === 'wheel' && event.dy > 0)).toBe(true);
    const up = events.find((event) => event.type === 'mouseup')!;
    expect(up.x - downs[0].x).toBe(200);
    expect(up.y - downs[0].y).toBe(50);
  });
});

describe('courtesy', () => {
  it('steps aside while another X client moves the mouse, and acts once it stops', async () => {
    const cu = runtime();
    const field = await receiver.toScreen(200, 60);
    const before = await mousedowns();
    const person = startPerson();
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await refusal(cu.execute({ action: 'left_click', x: field.x, y: field.y }, context()));
      expect(refused.code).toBe('user_active');
      expect(refused.message).toContain('stepped aside');
      expect(await mousedowns()).toBe(before);
    } finally {
      await person.stop();
    }
    await cu.execute({ action: 'left_click', x: field.x, y: field.y }, context());
    expect(await mousedowns()).toBe(before + 1);
  }, 20_000);
});

describe('gates', () => {
  it('refuses every action while paused, with the hint to /resume, and acts after resume', async () => {
    const control = createComputerUseControl(false);
    const cu = runtime({ control });
    const field = await receiver.toScreen(200, 60);
    await cu.execute({ action: 'cursor_position' }, context());
    const before = await mousedowns();
    control.setPaused(true);
    const refused = await refusal(cu.execute({ action: 'left_click', x: field.x, y: field.y }, context()));
    expect(refused.code).toBe('paused');
    expect(refused.hint).toContain('/resume');
    expect((await refusal(cu.execute({ action: 'screenshot' }, context()))).code).toBe('paused');
    expect(await mousedowns()).toBe(before);
    expect(cu.session('c1')).toBeDefined(); // the session stays
    control.setPaused(false);
    await cu.execute({ action: 'left_click', x: field.x, y: field.y }, context());
    expect(await mousedowns()).toBe(before + 1);
  });

  it('pausing during a long type stops it between keystrokes', async () => {
    const control = createComputerUseControl(false);
    const cu = runtime({ control });
    const field = await receiver.toScreen(200, 60);
    await cu.execute({ action: 'left_click', x: field.x, y: field.y }, context());
    await cu.execute({ action: 'key', chord: 'ctrl+a' }, context());
    await cu.execute({ action: 'key', chord: 'backspace' }, context());
    const typing = cu.execute({ action: 'type', text: 'x'.repeat(400) }, context());
    setTimeout(() => control.setPaused(true), 150);
    expect((await refusal(typing)).code).toBe('paused');
    const typed = (await receiver.value()).length;
    expect(typed).toBeGreaterThan(0);
    expect(typed).toBeLessThan(400);
  });

  it('is look-only in strict mode', async () => {
    const cu = runtime({ mode: 'strict' });
    const field = await receiver.toScreen(200, 60);
    const before = await mousedowns();
    const refused = await refusal(cu.execute({ action: 'left_click', x: field.x, y: field.y }, context()));
    expect(refused.code).toBe('refused (strict access)');
    expect((await refusal(cu.execute({ action: 'type', text: 'a' }, context()))).code).toBe('refused (strict access)');
    expect(await mousedowns()).toBe(before);
    expect((await cu.execute({ action: 'screenshot' }, context())).images).toHaveLength(1);
  });

  it('halts a session when its action budget is used up; a new session starts fresh', async () => {
    const cu = runtime({ limits: { maxActions: 3 } });
    for (let i = 0; i < 3; i += 1) await cu.execute({ action: 'cursor_position' }, context());
    expect((await refusal(cu.execute({ action: 'cursor_position' }, context()))).code).toBe('action_budget_exhausted');
    expect(cu.session('c1')).toMatchObject({ halted: true, actions: 3 });
    await cu.endSession('c1');
    await cu.execute({ action: 'cursor_position' }, context());
  });

  it('starts no session from scheduled, spawned, inbound-MCP or unattended callers', async () => {
    const cu = runtime();
    for (const overrides of [{ origin: 'job' }, { origin: 'subagent' }, { origin: 'mcp-inbound' }, { origin: 'cli', interactive: false }, { trust: 'guest' }] as Partial<ExecutionContext>[]) {
      expect((await refusal(cu.execute({ action: 'screenshot' }, context({ ...overrides, conversationId: 'c-unattended' })))).code).toBe('not active');
    }
    expect(cu.session('c-unattended')).toBeUndefined();
    expect((await cu.execute({ action: 'screenshot' }, context({ origin: 'cli', interactive: true, conversationId: 'c-ask' }))).images).toHaveLength(1);
  });
});

/** No focused field (its caret blinks), and the repaint of that blur is over. */
async function stillPage() {
  await receiver.page.locator('#field').blur();
  await waitForSettle(backend, 5000);
}

describe('the seat', () => {
  it('one conversation holds the desktop; another is refused busy until the hold lapses or the holder\'s session ends', async () => {
    const cu = runtime({ limits: { seatHoldMs: 1500 } });
    const move = (conversationId: string) => cu.execute({ action: 'mouse_move', x: 600, y: 600 }, context({ conversationId }));
    await move('c-holder');
    const refused = await refusal(move('c-other'));
    expect(refused.code).toBe('busy');
    expect(refused.hint).toContain('/stop');
    // Looking is never refused.
    expect((await cu.execute({ action: 'cursor_position' }, context({ conversationId: 'c-other' }))).data).toMatchObject({ x: 600, y: 600 });
    // The hold lapses without actions: the other conversation gets the desktop (retried until it does).
    await vi.waitFor(() => move('c-other'), { timeout: 15_000, interval: 200 });
    expect((await refusal(move('c-holder'))).code).toBe('busy'); // now c-other holds it
    await cu.endSession('c-other'); // its turn finished (/stop included)
    await move('c-holder');
  }, 30_000);
});

describe('wait and wait_for_change', () => {
  it('wait_for_change defaults to 10 s with a 250 ms poll', () => {
    expect(computerUseInput().parse({ action: 'wait_for_change' })).toMatchObject({ timeout_ms: 10_000, poll_ms: 250 });
  });

  it('wait waits and returns no screenshot; a /pause during a long wait stops it', async () => {
    const control = createComputerUseControl(false);
    const cu = runtime({ control });
    const waited = await cu.execute({ action: 'wait', ms: 200 }, context({ conversationId: 'c-wait' }));
    expect(waited.text).toContain('waited 200 ms');
    expect(waited.images).toBeUndefined();
    const long = cu.execute({ action: 'wait', ms: 25_000 }, context({ conversationId: 'c-wait' }));
    await vi.waitFor(() => expect(cu.session('c-wait')?.actions).toBe(2), { timeout: 10_000 });
    control.setPaused(true);
    expect((await refusal(long)).code).toBe('paused');
  });

  it('times out when nothing changes, and sees a change another X client makes during the wait', async () => {
    const cu = runtime();
    await stillPage();
    await cu.execute({ action: 'screenshot' }, context({ conversationId: 'c-change' }));
    const still = await cu.execute({ action: 'wait_for_change', timeout_ms: 1000 }, context({ conversationId: 'c-change' }));
    expect(still.data).toMatchObject({ changed: false });
    expect(still.text).toContain('no change within 1000 ms');
    expect(still.images).toBeUndefined();

    const blank = await receiver.toScreen(1000, 200);
    const before = await mousedowns();
    const waiting = cu.execute({ action: 'wait_for_change', timeout_ms: 20_000 }, context({ conversationId: 'c-change' }));
    await vi.waitFor(() => expect(cu.session('c-change')?.actions).toBe(3), { timeout: 10_000 });
    // The person (xdotool, its own X client) clicks the page; its counter repaints.
    spawnSync('xdotool', ['mousemove', String(blank.x), String(blank.y), 'click', '1']);
    const changed = await waiting;
    expect(changed.data).toMatchObject({ changed: true });
    expect(changed.images).toHaveLength(1);
    expect(await mousedowns()).toBe(before + 1);
  }, 40_000);
});

describe('unchanged view', () => {
  it('warns by name after three mutating actions in a row change nothing; a changing action resets the count', async () => {
    const cu = runtime();
    await stillPage();
    const blank = await receiver.toScreen(1000, 200);
    const inert = await receiver.toScreen(950, 400);
    const click = (at: { x: number; y: number }) => cu.execute({ action: 'left_click', ...at }, context({ conversationId: 'c-inert' }));
    expect((await click(blank)).data).not.toHaveProperty('warning'); // the counter repaints: a change
    expect((await click(inert)).data).not.toHaveProperty('warning');
    expect((await click(inert)).data).not.toHaveProperty('warning');
    const third = await click(inert);
    expect(third.data).toMatchObject({ warning: 'unchanged_view' });
    expect(third.text).toContain('Warning [unchanged_view]: the last 3 actions changed nothing on screen');
    expect((await click(blank)).data).not.toHaveProperty('warning');
    expect((await click(inert)).data).not.toHaveProperty('warning');
  }, 40_000);
});

describe('nothing stays held', () => {
  /** The real backend, with a hook once a button or key went down: where a /stop lands mid-action. */
  const hooked = (onDown: () => void): TrackedBackend =>
    trackInput({
      ...raw,
      pressButton: async (button) => {
        await raw.pressButton(button);
        onDown();
      },
      pressKey: async (key) => {
        await raw.pressKey(key);
        onDown();
      },
    });

  it('a /stop during a drag releases the mouse button', async () => {
    const turn = new AbortController();
    const cu = runtime({ backend: hooked(() => turn.abort()) });
    const pad = await receiver.toScreen(300, 290);
    const start = (await receiver.events()).length;
    const refused = await refusal(cu.execute({ action: 'left_click_drag', from: { x: pad.x - 100, y: pad.y }, to: { x: pad.x + 100, y: pad.y } }, context({ signal: turn.signal })));
    expect(refused.message).toContain('stopped');
    // The X server's pointer state, seen by a later move from another client: no button is down.
    expect((await receiver.probeHeld()).buttons).toBe(0);
    const events = (await receiver.events()).slice(start);
    expect(events.filter((event) => event.type === 'mousedown')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'mouseup')).toHaveLength(1);
  }, 20_000);

  it('a /stop inside a chord releases the keys already down', async () => {
    const turn = new AbortController();
    const cu = runtime({ backend: hooked(() => turn.abort()) });
    const start = (await receiver.events()).length;
    const refused = await refusal(cu.execute({ action: 'key', chord: 'shift+ctrl+a' }, context({ signal: turn.signal })));
    expect(refused.message).toContain('stopped');
    const held = await receiver.probeHeld();
    expect(held).toMatchObject({ shift: false, ctrl: false });
    const keys = (await receiver.events()).slice(start).filter((event) => event.key === 'Shift').map((event) => event.type);
    expect(keys).toEqual(['keydown', 'keyup']);
  }, 20_000);

  it('an action past its deadline presses nothing afterwards and leaves nothing held', async () => {
    let slowed = false;
    let slowMoveReturned!: () => void;
    const returned = new Promise<void>((resolve) => (slowMoveReturned = resolve));
    // A native call that hangs past the deadline: the first move of the drag.
    const slow = trackInput({
      ...raw,
      move: async (x, y) => {
        await raw.move(x, y);
        if (!slowed) {
          slowed = true;
          await new Promise((resolve) => setTimeout(resolve, 600));
          slowMoveReturned();
        }
      },
    });
    const cu = runtime({ backend: slow, limits: { actionDeadlineMs: 200 } });
    const pad = await receiver.toScreen(300, 290);
    const start = (await receiver.events()).length;
    const refused = await refusal(cu.execute({ action: 'left_click_drag', from: { x: pad.x - 100, y: pad.y }, to: { x: pad.x + 100, y: pad.y } }, context()));
    expect(refused.code).toBe('action_timeout');
    // Once the hung call returns, the drag must not go on to press the button.
    await returned;
    expect((await receiver.probeHeld()).buttons).toBe(0);
    const events = (await receiver.events()).slice(start);
    expect(events.filter((event) => event.type === 'mousedown')).toHaveLength(events.filter((event) => event.type === 'mouseup').length);
  }, 20_000);
});
