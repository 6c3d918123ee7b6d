// The conversation's controls say "Acting now" while a computer_use action runs: from computer.status when
// the window opens mid-action, then live from computer.state events. The daemon side (computer.status
// carrying `acting` from the runtime) is proved in test/computer-use-daemon.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { App } from '../../app/app.js';
import { createAppModel } from '../../app/app-model.js';
import { ModelProvider } from '../../app/model-context.js';
import { SYSTEM_STREAM } from '../../../../main/api/events.js';
import { inProcessDaemon } from '../../testing/in-process-daemon.js';
import { computerLabel } from './computer-label.js';

afterEach(cleanup);

const SUMMARY = 'Computer use is active: the agent may drive this desktop when a turn asks for it.';

describe('computer use in the controls', () => {
  it('shows "Acting now" while an action runs, and "active" / "paused" otherwise', async () => {
    const daemon = inProcessDaemon({ handlers: { 'computer.status': () => ({ enabled: true, paused: false, summary: SUMMARY, acting: true }) } });
    const model = createAppModel(daemon.transport);
    await act(async () => {
      render(<ModelProvider model={model}><App /></ModelProvider>);
    });
    const controls = await screen.findByRole('toolbar', { name: 'Controls' });
    const computer = () => controls.querySelector('.status-computer-use')!;
    // Opened mid-action: computer.status alone says so.
    await within(controls).findByText('Acting now');
    expect(computer().getAttribute('data-state')).toBe('acting');
    await act(async () => daemon.emit(SYSTEM_STREAM, 'computer.state', { enabled: true, paused: false, summary: SUMMARY, acting: false }));
    expect(within(controls).queryByText('Acting now')).toBeNull();
    expect(computer().querySelector('.control-state')!.textContent).toBe('active');
    await act(async () => daemon.emit(SYSTEM_STREAM, 'computer.state', { enabled: true, paused: false, summary: SUMMARY, acting: true }));
    expect(computer().querySelector('.control-state')!.textContent).toBe('Acting now');
    // A pause wins: the action under way is the last one, and the person should read "paused".
    await act(async () => daemon.emit(SYSTEM_STREAM, 'computer.state', { enabled: true, paused: true, summary: SUMMARY, acting: true }));
    expect(computer().querySelector('.control-state')!.textContent).toBe('paused');
    expect(within(controls).getByRole('button', { name: 'Resume computer use' })).toBeTruthy();
  });

  it('the status bar label says "acting now" too, and nothing about acting while off', () => {
    expect(computerLabel({ enabled: true, paused: false, summary: SUMMARY, acting: true }, null)).toEqual({ text: 'acting now', state: 'acting' });
    expect(computerLabel({ enabled: true, paused: false, summary: SUMMARY }, null)).toEqual({ text: 'active', state: 'active' });
    expect(computerLabel({ enabled: false, paused: false, summary: 'off', acting: true }, null).state).toBe('off');
  });
});
