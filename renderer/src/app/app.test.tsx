// The whole window (stores, wiring, components) over an in-process transport to a real dispatcher with
// real handlers; what only a browser and a daemon can show is in e2e/window.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { AppTransport } from '../api/transport.js';
import { inProcessDaemon } from '../testing/in-process-daemon.js';
import { App } from './app.js';
import { createAppModel } from './app-model.js';
import { ModelProvider } from './model-context.js';

async function renderApp(transport: AppTransport) {
  const model = createAppModel(transport);
  await act(async () => {
    render(<ModelProvider model={model}><App /></ModelProvider>);
  });
  return model;
}

afterEach(cleanup);

/** The status bar's connection line (other live regions also have role status). */
const connectionStatus = () => screen.getAllByRole('status').find((element) => element.classList.contains('status-connection'))!;

describe('the window', () => {
  it('shows Connected and the daemon version; New conversation stores nothing until the first message; lists events from elsewhere', async () => {
    const daemon = inProcessDaemon({ authorized: true, handlers: { 'chat.send': (input) => ({ conversation_id: input.conversation_id ?? 'x', turn_id: 't1', position: 0, events_after_seq: 0, turn: null }) } });
    await renderApp(daemon.transport);
    expect(connectionStatus().textContent).toContain('Connected');
    expect(screen.getByText('Fermix daemon 9.8.7')).toBeTruthy();
    expect(screen.getByText(/No conversations yet/)).toBeTruthy();

    // Clicking it twice adds nothing: the draft exists only in the window.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'New conversation' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'New conversation' })));
    const list = screen.getByRole('list', { name: 'Conversations' });
    expect(within(list).queryAllByRole('listitem')).toHaveLength(0);
    expect(daemon.calls.filter((call) => call.method === 'conversations.create')).toHaveLength(0);
    expect(screen.getByRole('heading', { level: 1, name: 'New conversation' })).toBeTruthy();
    // Three starters instead of token commands.
    expect(within(screen.getByRole('list', { name: 'Suggestions' })).getAllByRole('button')).toHaveLength(3);
    expect(screen.queryByText('/confirm TOKEN')).toBeNull();

    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Plan my garden for spring\nwith details' } });
    await act(async () => fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Enter' }));
    expect(daemon.calls.filter((call) => call.method === 'conversations.create').map((call) => call.input)).toEqual([{ title: 'Plan my garden for spring', auto_title: true }]);
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([expect.stringContaining('Plan my garden for spring')]);

    await act(async () => daemon.emit('c9', 'conversation.created', { id: 'c9', title: 'From the CLI' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('From the CLI')).toBeTruthy();
    await act(async () => daemon.emit('c9', 'conversation.updated', { id: 'c9', title: 'Renamed' }));
    expect(within(list).getByText('Renamed')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    // Grouped by day, no full date-time on the row.
    expect(screen.getByText('Older')).toBeTruthy();
  });

  it('opens the command palette with Ctrl+K and the shortcut sheet with ?, and hides computer use while it is off', async () => {
    await renderApp(inProcessDaemon({ authorized: true }).transport);
    expect(screen.queryByText(/Computer use/)).toBeNull();
    await act(async () => fireEvent.keyDown(window, { key: 'k', ctrlKey: true }));
    const palette = screen.getByRole('dialog', { name: 'Command palette' });
    fireEvent.change(within(palette).getByRole('combobox'), { target: { value: 'sett prov' } });
    expect(within(palette).getAllByRole('option').map((option) => option.textContent)).toEqual([expect.stringContaining('Settings → Providers and models')]);
    await act(async () => fireEvent.keyDown(within(palette).getByRole('combobox'), { key: 'Enter' }));
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    await act(async () => fireEvent.keyDown(document.body, { key: '?' }));
    expect(within(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).getByText('New conversation')).toBeTruthy();
  });

  it('shows one clear not-authorized screen with the hint, and loads no feature data', async () => {
    const daemon = inProcessDaemon({ authorized: false });
    await renderApp(daemon.transport);
    expect(screen.getByRole('heading', { name: 'Not authorized — open the URL printed by the daemon' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This request carries no valid session or token.');
    expect(within(screen.getByRole('alert')).getByText('fermix status').tagName).toBe('CODE');
    expect(screen.queryByRole('list', { name: 'Conversations' })).toBeNull();
    expect(connectionStatus().textContent).toContain('Not authorized');
  });

  it('opens the Plugins place with its catalog and MCP servers tabs', async () => {
    await renderApp(inProcessDaemon({ authorized: true }).transport);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Plugins' })));
    expect(screen.getByRole('tab', { name: 'Catalog' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'MCP servers' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Plugins' }).getAttribute('aria-current')).toBe('page');
  });
});
