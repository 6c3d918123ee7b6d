// The tray's label for each computer-use state; that the tray follows the daemon live (status, then
// computer.state events, its own toggle) is tested against a real daemon in test/computer-use-daemon.test.ts.
import { describe, expect, it } from 'vitest';
import { trayLabel } from './computer-use-state.js';

describe('the tray label', () => {
  it('words every state as the window does, and a pending restart', () => {
    expect(trayLabel(undefined)).toBe('Computer use: unknown');
    expect(trayLabel({ enabled: false, paused: false, summary: '' })).toBe('Computer use: not enabled');
    expect(trayLabel({ enabled: true, paused: false, summary: '' })).toBe('Computer use: active');
    expect(trayLabel({ enabled: true, paused: true, summary: '' })).toBe('Computer use: paused');
    expect(trayLabel({ enabled: true, paused: false, summary: '', acting: true })).toBe('Computer use: acting now');
    expect(trayLabel({ enabled: true, paused: true, summary: '', acting: true })).toBe('Computer use: paused');
    expect(trayLabel({ enabled: true, paused: false, summary: '', restart_required: true })).toBe('Computer use: enabled, starts after a restart');
    expect(trayLabel({ enabled: false, paused: false, summary: '', restart_required: true })).toBe('Computer use: turned off, stops after a restart');
  });
});
