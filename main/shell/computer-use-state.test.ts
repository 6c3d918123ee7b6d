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
