// The Memory place over an in-process transport to the real dispatcher: a guest-written memory is marked as
// such (the owner's prompt never reads it, the owner should see why), with its category, scope and
// confidence; Forget asks first and calls memory.forget with the row's id only after the confirmation.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { inProcessDaemon } from '../../testing/in-process-daemon.js';
import { App } from '../../app/app.js';
import { createAppModel } from '../../app/app-model.js';
import { ModelProvider } from '../../app/model-context.js';

afterEach(cleanup);

const MEMORIES = [
  { id: 7, key: 'wine', value: 'Likes white wine with fish', category: 'preference', scope: 'conversation:shared', confidence: 0.8, written_by: 'guest', updated_at: '2026-11-30T10:00:00.000Z' },
  { id: 3, key: 'timezone', value: 'Europe/Lisbon', category: 'identity', scope: 'owner', confidence: 1, written_by: 'operator', updated_at: '2026-11-29T10:00:00.000Z' },
];

describe('the Memory place', () => {
  it('marks a guest-written memory, shows category, scope and confidence, and forgets only after confirming', async () => {
    let memories = [...MEMORIES];
    const daemon = inProcessDaemon({
      authorized: true,
      handlers: {
        'memory.list': () => ({ memories }),
        'memory.forget': (input) => {
          const removed = memories.filter((memory) => String(memory.id) === input.target);
          memories = memories.filter((memory) => String(memory.id) !== input.target);
          return { removed };
        },
      },
    });
    await act(async () => {
      render(<ModelProvider model={createAppModel(daemon.transport)}><App /></ModelProvider>);
    });
    await act(async () => fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Memory' })));
    const list = await screen.findByRole('list', { name: 'Memories' });
    const [wine, timezone] = within(list).getAllByRole('listitem');
    expect(within(wine).getByText('Written by a guest')).toBeTruthy();
    expect(within(wine).getByText('80% sure')).toBeTruthy();
    expect(within(wine).getByText('One conversation')).toBeTruthy();
    expect(within(timezone).queryByText('Written by a guest')).toBeNull();
    expect(within(timezone).getByText('About you')).toBeTruthy();

    // The button's name is its visible text; which memory it acts on is its description.
    const forget = within(wine).getByRole('button', { name: 'Forget' });
    expect(document.getElementById(forget.getAttribute('aria-describedby')!)!.textContent).toBe('wine');
    await act(async () => fireEvent.click(forget));
    expect(daemon.calls.some((call) => call.method === 'memory.forget')).toBe(false);
    await act(async () => fireEvent.click(within(wine).getByRole('button', { name: 'Forget' })));
    expect(daemon.calls.filter((call) => call.method === 'memory.forget').map((call) => call.input)).toEqual([{ target: '7' }]);
    expect(within(screen.getByRole('list', { name: 'Memories' })).getAllByRole('listitem')).toHaveLength(1);
  });
});
