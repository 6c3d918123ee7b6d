// computer_use against the real desktop stack: nut-js on the suite's Xvfb, a headful Chromium window as
// the receiving X client, xprintidle for idle time and xdotool as the person. Run under ci/with-desktop.sh.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../core/capabilities/capability.js';
import { isFermixError } from '../core/errors.js';
import { createComputerUseControl } from '../daemon/computer-handlers.js';
import { trackInput, type TrackedBackend } from './backend.js';
import { awaitPersonIdle, createXprintidleProbe, type IdleProbe } from './idle.js';
import { createNutBackend } from './nut-backend.js';
import { createComputerUseRuntime, type ComputerUseRuntime } from './runtime.js';
import { openReceiver, requireDisplay, startPerson, type Receiver } from './test-receiver.js';

requireDisplay();

const SYMBOLS = '!@#$%^&*()_+{}|:"<>?~';
let backend: TrackedBackend;
let probe: IdleProbe;
let receiver: Receiver;

const context = (overrides: Partial<ExecutionContext> = {}): ExecutionContext => ({
  trust: 'operator', origin: 'chat', interactive: true, conversationId: 'c1', signal: new AbortController().signal, services: {}, ...overrides,
});

function runtime(options: { mode?: 'strict' | 'standard'; maxActions?: number; control?: ReturnType<typeof createComputerUseControl> } = {}): ComputerUseRuntime {
  return createComputerUseRuntime({
    backend, idle: probe, control: options.control ?? createComputerUseControl(false), enabled: () => true,
    accessMode: () => options.mode ?? 'standard', ...(options.maxActions ? { limits: { maxActions: options.maxActions } } : {}),
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
  backend = trackInput(await createNutBackend());
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
    const cu = runtime({ maxActions: 3 });
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
