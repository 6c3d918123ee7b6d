import { describe, expect, it } from 'vitest';
import { createComputerUseState } from './computer-use-state.js';

describe('computer-use tray state', () => {
  it('labels the state honestly and offers the opposite action', () => {
    const state = createComputerUseState({ enabled: false });
    expect(state.label()).toBe('Computer use: active (not enabled)');
    expect(state.toggleLabel()).toBe('Pause computer use');
    state.toggle();
    expect(state.paused).toBe(true);
    expect(state.label()).toBe('Computer use: paused (not enabled)');
    expect(state.toggleLabel()).toBe('Resume computer use');
  });

  it('drops "(not enabled)" when config.toml enables computer use, and tells listeners about changes', () => {
    const state = createComputerUseState({ enabled: true, paused: true });
    expect(state.label()).toBe('Computer use: paused');
    const seen: boolean[] = [];
    const stop = state.onChange(() => seen.push(state.paused));
    state.toggle();
    stop();
    state.toggle();
    expect(seen).toEqual([false]);
  });
});

describe('computer use state backed by the daemon switch', () => {
  it('reads and writes through the shared switch, so the tray and the window agree', async () => {
    const { createComputerUseControl } = await import('../daemon/computer-handlers.js');
    const control = createComputerUseControl(false);
    const state = createComputerUseState({ enabled: true, control });
    let renders = 0;
    state.onChange(() => (renders += 1));
    state.toggle();
    expect(control.paused).toBe(true);
    expect(state.label()).toBe('Computer use: paused');
    control.setPaused(false); // e.g. /resume in the window
    expect(state.paused).toBe(false);
    expect(state.toggleLabel()).toBe('Pause computer use');
    expect(renders).toBe(2);
  });
});
