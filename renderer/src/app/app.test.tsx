// The whole window (stores, wiring, components) over an in-process transport to a real dispatcher with
// real handlers; what only a browser and a daemon can show is in e2e/window.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createDispatcher, type Handlers } from '../../../main/api/dispatcher.js';
import type { EventEnvelope } from '../../../main/api/events.js';
import { FermixError } from '../../../main/core/errors.js';
import type { AppTransport } from '../api/transport.js';
import { App } from './app.js';
import { createAppModel } from './app-model.js';
import { ModelProvider } from './model-context.js';

type Row = { id: string; title: string; created_at: string; updated_at: string };

function inProcessDaemon(options: { authorized: boolean }) {
  const rows: Row[] = [];
  const listeners = new Set<(event: EventEnvelope) => void>();
  let seq = 0;
  const emit = (type: string, payload: { id: string; title: string }) => {
    seq += 1;
    listeners.forEach((listener) => listener({ stream: payload.id, seq, type, time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), payload }));
  };
  const guard = () => {
    if (!options.authorized) throw new FermixError({ code: 'unauthorized', message: 'This request carries no valid session or token.', hint: 'Run `fermix status` to see the URL.' });
  };
  const handlers: Partial<Handlers> = {
    'system.status': () => {
      guard();
      return { pid: 42, version: '9.8.7', started_at: '2026-01-01T00:00:00.000Z', uptime_s: 3, home: '/home/test/.fermix', http_url: null, socket: '/home/test/.fermix/run/daemon.sock', in_flight: 0 };
    },
    'conversations.list': () => ({ conversations: [...rows].reverse() }),
    'conversations.create': (input) => {
      const time = new Date(Date.UTC(2026, 0, 1, 0, 0, rows.length)).toISOString();
      const row = { id: `c${rows.length + 1}`, title: input.title ?? 'New conversation', created_at: time, updated_at: time };
      rows.push(row);
      emit('conversation.created', { id: row.id, title: row.title });
      return row;
    },
    'conversations.get': (input) => ({ conversation: rows.find((row) => row.id === input.id)!, messages: [] }),
  };
  const dispatcher = createDispatcher(handlers);
  const transport: AppTransport = {
    kind: 'ipc',
    invoke: (method, input) => dispatcher.dispatch(method, input, { transport: 'in-process', trust: 'operator' }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onLink(listener) {
      listener('open');
      return () => {};
    },
    onResync: () => () => {},
    close() {},
  };
  return { transport, rows, emit };
}

async function renderApp(transport: AppTransport) {
  const model = createAppModel(transport);
  await act(async () => {
    render(<ModelProvider model={model}><App /></ModelProvider>);
  });
  return model;
}

afterEach(cleanup);

describe('the window', () => {
  it('shows Connected and the daemon version, creates a conversation, and lists events from elsewhere', async () => {
    const daemon = inProcessDaemon({ authorized: true });
    await renderApp(daemon.transport);
    expect(screen.getByRole('status').textContent).toContain('Connected');
    expect(screen.getByText('Fermix daemon 9.8.7')).toBeTruthy();
    expect(screen.getByText('No conversations yet.')).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'New conversation' })));
    const list = screen.getByRole('list', { name: 'Conversations' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'New conversation' })).toBeTruthy();

    await act(async () => daemon.emit('conversation.created', { id: 'c9', title: 'From the CLI' }));
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('From the CLI'),
      expect.stringContaining('New conversation'),
    ]);
    await act(async () => daemon.emit('conversation.updated', { id: 'c9', title: 'Renamed' }));
    expect(within(list).getByText('Renamed')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  });

  it('shows one clear not-authorized screen with the hint, and loads no feature data', async () => {
    const daemon = inProcessDaemon({ authorized: false });
    await renderApp(daemon.transport);
    expect(screen.getByRole('heading', { name: 'Not authorized — open the URL printed by the daemon' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This request carries no valid session or token.');
    expect(within(screen.getByRole('alert')).getByText('fermix status').tagName).toBe('CODE');
    expect(screen.queryByRole('list', { name: 'Conversations' })).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Not authorized');
  });

  it('names the Plugins screen honestly as arriving with the plugin system', async () => {
    await renderApp(inProcessDaemon({ authorized: true }).transport);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Plugins' })));
    expect(screen.getByText(/Plugin setup arrives with the plugin system/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Plugins' }).getAttribute('aria-current')).toBe('page');
  });
});
