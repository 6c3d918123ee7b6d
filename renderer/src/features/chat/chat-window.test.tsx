// The chat window in jsdom over the real dispatcher with scripted handlers: streaming, the cards, slash
// commands, the first-run card and windowing of long threads. The browser-and-daemon proof is e2e/chat*.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Handlers } from '../../../../main/api/dispatcher.js';
import { App } from '../../app/app.js';
import { createAppModel } from '../../app/app-model.js';
import { ModelProvider } from '../../app/model-context.js';
import { inProcessDaemon, type InProcessDaemon } from '../../testing/in-process-daemon.js';

afterEach(cleanup);

const later = () => new Promise((resolve) => setTimeout(resolve, 0));

async function openWindow(handlers: (daemon: () => InProcessDaemon) => Partial<Handlers> = () => ({})) {
  const holder: { daemon?: InProcessDaemon } = {};
  const daemon = inProcessDaemon({ handlers: handlers(() => holder.daemon!) });
  holder.daemon = daemon;
  const model = createAppModel(daemon.transport);
  await act(async () => {
    render(<ModelProvider model={model}><App /></ModelProvider>);
  });
  return daemon;
}

const finished = (turn: string, conversation: string, extra: Record<string, unknown> = {}) => ({
  turn_id: turn, conversation_id: conversation, status: 'completed', text: '', stop_reason: 'stop', error: null, provider: 'local', model: 'qwen3', iterations: 1,
  usage: { input_tokens: 1200, output_tokens: 34 }, cost_usd: 0.0042, ...extra,
});

/** chat.send that answers with the given events, emitted after the call returns (as the daemon does). */
function scriptedSend(script: (daemon: InProcessDaemon, conversation: string, turn: string) => void) {
  return (daemon: () => InProcessDaemon): Partial<Handlers> => {
    let turns = 0;
    return {
      'chat.send': (input) => {
        const turn = `T${++turns}`;
        const conversation = input.conversation_id!;
        setTimeout(() => {
          daemon().emit(conversation, 'chat.turn_queued', { turn_id: turn, conversation_id: conversation, position: 0 });
          daemon().emit(conversation, 'chat.turn_started', { turn_id: turn, conversation_id: conversation, resumed: false });
          script(daemon(), conversation, turn);
        }, 0);
        return { conversation_id: conversation, turn_id: turn, position: 0, events_after_seq: 0, turn: null };
      },
    };
  };
}

async function type(text: string, options: { shiftKey?: boolean } = {}) {
  const box = screen.getByRole('textbox', { name: 'Message' });
  await act(async () => {
    fireEvent.change(box, { target: { value: text } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: options.shiftKey ?? false });
    await later();
  });
}

describe('the chat', () => {
  it('sends with Enter (not Shift+Enter), streams the answer as markdown, and shows tokens and cost', async () => {
    await openWindow(scriptedSend((daemon, conversation, turn) => {
      daemon.emit(conversation, 'chat.delta', { turn_id: turn, text: 'Use **npm' });
      daemon.emit(conversation, 'chat.delta', { turn_id: turn, text: ' test**, then `git push`.' });
      daemon.emit(conversation, 'chat.turn_finished', finished(turn, conversation, { text: 'Use **npm test**, then `git push`.' }));
    }));
    await type('first line', { shiftKey: true });
    expect(screen.queryByRole('article', { name: 'Your message' })).toBeNull();
    await type('How do I ship?');
    const answer = await screen.findByRole('article', { name: 'Fermix' });
    await waitFor(() => expect(within(answer).getByText('npm test').tagName).toBe('STRONG'));
    expect(within(answer).getByText('git push').tagName).toBe('CODE');
    expect(screen.getByRole('article', { name: 'Your message' }).textContent).toContain('How do I ship?');
    expect(screen.getByLabelText('Turn usage').textContent).toContain('1,200 in · 34 out tokens');
    expect(screen.getByLabelText('Turn usage').textContent).toContain('$0.0042');
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('');
  });

  it('shows one card per call: the tool card is the approval, in plain words, answered with A, then one line', async () => {
    const daemon = await openWindow((get) => ({
      ...scriptedSend((d, conversation, turn) => {
        d.emit(conversation, 'chat.tool_call', { turn_id: turn, call_id: 'c1', name: 'shell', requested_name: 'shell', args: { command: 'git status --short' } });
        d.emit(conversation, 'approval.requested', { id: 'A1', capability: 'shell', summary: 'shell can change things' });
        d.emit(conversation, 'chat.parked', { turn_id: turn, call_id: 'c1', approval_id: 'A1', capability: 'shell', reason: 'shell can change things', card: { id: 'A1', capability: 'shell', args: { command: 'git status --short' }, reason: 'shell can change things', always_covers: { permission: 'shell', pattern: 'git status *', action: 'allow', source: 'always-answer' } } });
      })(get),
      'approvals.answer': (input) => {
        const conversation = get().rows[0].id;
        setTimeout(() => get().emit(conversation, 'approval.resolved', { id: input.id, answer: input.answer }), 0);
        return { ok: true as const };
      },
    }));
    await type('what changed?');
    const card = await screen.findByRole('group', { name: 'Approval needed: Run a command' });
    // One card: no second "tool call" card for the same call while it waits.
    expect(screen.queryAllByRole('region', { name: /^Tool call shell/ })).toHaveLength(0);
    expect(card.textContent).toContain('git status --short');
    expect(card.textContent).toContain('Always allow covers git status with any arguments');
    expect(card.textContent).not.toContain('permission =');
    await waitFor(() => expect(document.activeElement?.closest('.approval-card')).toBe(card));
    // The visible words are the buttons' names (no hidden label that differs from what is shown).
    expect(within(card).getByRole('button', { name: 'Allow once' })).toBeTruthy();
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: 'a' });
      await later();
    });
    expect(daemon.calls.find((call) => call.method === 'approvals.answer')?.input).toEqual({ id: 'A1', answer: 'always' });
    const line = await screen.findByRole('region', { name: /^Tool call shell/ });
    await waitFor(() => expect(line.textContent).toContain('Always allowed (rule saved in config.toml)'));
    expect(screen.queryByRole('group', { name: /^Approval needed/ })).toBeNull();
  });

  it('leaves the focus in a half-typed message when an approval card appears (its letters would answer the card)', async () => {
    const daemon = await openWindow(scriptedSend(() => {}));
    await type('start');
    const box = screen.getByRole('textbox', { name: 'Message' });
    await act(async () => {
      fireEvent.change(box, { target: { value: 'and then' } });
      box.focus();
      const conversation = daemon.rows[0].id;
      daemon.emit(conversation, 'chat.tool_call', { turn_id: 'T1', call_id: 'c1', name: 'shell', requested_name: 'shell', args: { command: 'make' } });
      daemon.emit(conversation, 'chat.parked', { turn_id: 'T1', call_id: 'c1', approval_id: 'A2', capability: 'shell', reason: 'r', card: { id: 'A2', capability: 'shell', args: { command: 'make' }, reason: 'r' } });
      await later();
    });
    await screen.findByRole('group', { name: 'Approval needed: Run a command' });
    expect(document.activeElement).toBe(box);
  });

  it('shows a folder request, approves it with /confirm TOKEN, and stops with Escape', async () => {
    const daemon = await openWindow((get) => ({
      ...scriptedSend((d, conversation, turn) => {
        d.emit(conversation, 'directory_access.requested', { conversation_id: conversation, token: 'K7Q2ZP', path: '/home/me/site', reason: 'to build the site', message: 'm', expires_at: '2026-01-01T00:01:00.000Z' });
        void turn;
      })(get),
      'directory_access.answer': (input) => {
        setTimeout(() => get().emit('system', 'directory_access.settled', { token: input.token, outcome: 'granted' }), 0);
        return { outcome: 'granted' as const };
      },
      'chat.stop': () => ({ stopped: 1 }),
    }));
    await type('build my site');
    const card = await screen.findByRole('group', { name: 'Folder access request: /home/me/site' });
    await type('/confirm k7q2zp');
    expect(daemon.calls.find((call) => call.method === 'directory_access.answer')?.input).toMatchObject({ token: 'K7Q2ZP', decision: 'confirm' });
    await waitFor(() => expect(card.textContent).toContain('Approved: Fermix may now use this folder (saved in config.toml).'));
    await act(async () => {
      fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Escape' });
      await later();
    });
    expect(daemon.calls.some((call) => call.method === 'chat.stop')).toBe(true);
  });

  it('keeps only a window of a 2,000-message conversation in the page', async () => {
    const messages = Array.from({ length: 2000 }, (_, index) => ({ id: index + 1, conversation_id: 'c1', role: index % 2 ? ('assistant' as const) : ('user' as const), content: `message ${index + 1}`, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString() }));
    const daemon = await openWindow(() => ({ 'conversations.get': () => ({ conversation: { id: 'c1', title: 'Long', created_at: messages[0].created_at, updated_at: messages[1999].created_at, pinned: false, title_source: 'user' as const }, messages, has_more: false }) }));
    daemon.rows.push({ id: 'c1', title: 'Long', created_at: messages[0].created_at, updated_at: messages[1999].created_at });
    await act(async () => {
      daemon.emit('c1', 'conversation.created', { id: 'c1', title: 'Long' });
      await later();
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^Long/ }));
      await later();
    });
    const list = await screen.findByRole('list', { name: 'Messages' });
    await waitFor(() => expect(within(list).getByText('message 2000')).toBeTruthy());
    expect(within(list).getAllByRole('listitem').length).toBeLessThanOrEqual(60);
    expect(within(list).queryByText('message 1')).toBeNull();
    expect(within(list).getAllByRole('listitem')[0].getAttribute('aria-setsize')).toBe('2000');
  });
});

describe('a long conversation', () => {
  it('opens with its recent turns, then adds tool cards and totals of the older ones', async () => {
    const count = 100;
    const time = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
    const turns = Array.from({ length: count }, (_, index) => ({
      turn_id: `T${index}`, conversation_id: 'c1', status: 'completed' as const, text: '', stop_reason: 'stop', error: null, provider: 'local', model: 'qwen3', iterations: 1,
      usage: { input_tokens: 10, output_tokens: index }, cost_usd: null, hold: null, created_at: time(index * 3), finished_at: time(index * 3 + 2), tool_calls: [],
    }));
    const messages = turns.flatMap((turn, index) => [
      { id: index * 2 + 1, conversation_id: 'c1', role: 'user' as const, content: `question ${index}`, created_at: time(index * 3 + 1) },
      { id: index * 2 + 2, conversation_id: 'c1', role: 'assistant' as const, content: `answer ${index}`, created_at: time(index * 3 + 2) },
    ]);
    const model = { thread: undefined as undefined | ReturnType<typeof createAppModel>['thread'] };
    const daemon = inProcessDaemon({
      handlers: {
        'chat.turns': (input) => ({ turns: turns.slice(-input.limit) }),
        'conversations.get': () => ({ conversation: { id: 'c1', title: 'Long', created_at: time(0), updated_at: time(400), pinned: false, title_source: 'user' as const }, messages, has_more: false }),
      },
    });
    const app = createAppModel(daemon.transport);
    model.thread = app.thread;
    await act(async () => {
      await app.thread.getState().open('c1');
    });
    const limits = daemon.calls.filter((call) => call.method === 'chat.turns').map((call) => (call.input as { limit: number }).limit);
    expect(limits).toEqual([40, 500]);
    await waitFor(() => expect(app.thread.getState().thread!.items[2]).toMatchObject({ kind: 'turn-end', turnId: 'T0' }));
    const items = app.thread.getState().thread!.items;
    expect(items.filter((item) => item.kind === 'turn-end')).toHaveLength(count);
    expect(items.filter((item) => item.kind === 'user')).toHaveLength(count);
    app.dispose();
  });
});

describe('a conversation longer than one page of history', () => {
  it('opens with its newest messages and pages back with "Show earlier messages"', async () => {
    const total = 6_500;
    const time = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + second * 1000).toISOString();
    const messages = Array.from({ length: total }, (_, index) => ({
      id: index + 1, conversation_id: 'c1', role: (index % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant', content: `message ${index + 1}`, created_at: time(index), turn_id: null,
    }));
    // Pages as the daemon's chat.history does: newest last, before_id pages back, has_more says more is left.
    const daemon = inProcessDaemon({
      handlers: {
        'chat.history': (input) => {
          const end = input.before_id === undefined ? messages.length : messages.findIndex((message) => message.id === input.before_id);
          const start = Math.max(0, end - input.limit);
          return { messages: messages.slice(start, end), has_more: start > 0 };
        },
      },
    });
    const app = createAppModel(daemon.transport);
    await act(async () => {
      await app.thread.getState().open('c1');
    });
    let items = app.thread.getState().thread!.items;
    expect(items[0]).toMatchObject({ kind: 'earlier', beforeId: total - 5000 + 1, loading: false });
    expect(items.filter((item) => item.kind !== 'earlier')).toHaveLength(5000);
    expect(items[1]).toMatchObject({ text: `message ${total - 5000 + 1}` });

    await act(async () => {
      await app.thread.getState().loadEarlier();
    });
    items = app.thread.getState().thread!.items;
    // Everything is read now: no more "earlier" row, the oldest message first, nothing twice.
    expect(items[0]).toMatchObject({ kind: 'user', text: 'message 1' });
    expect(items.some((item) => item.kind === 'earlier')).toBe(false);
    expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
    expect(items.filter((item) => item.kind === 'user' || item.kind === 'assistant')).toHaveLength(total);
    const history = daemon.calls.filter((call) => call.method === 'chat.history').map((call) => call.input);
    expect(history.at(-1)).toMatchObject({ before_id: total - 5000 + 1 });
    app.dispose();
  });

  it('shows a failed page on the row and lets the person try again', async () => {
    let fail = true;
    const messages = Array.from({ length: 5_001 }, (_, index) => ({ id: index + 1, conversation_id: 'c1', role: 'user' as const, content: `m${index + 1}`, created_at: new Date(Date.UTC(2026, 0, 1) + index).toISOString(), turn_id: null }));
    const daemon = inProcessDaemon({
      handlers: {
        'chat.history': (input) => {
          if (input.before_id !== undefined && fail) throw Object.assign(new Error('database is locked'), { code: 'database_busy' });
          const end = input.before_id === undefined ? messages.length : input.before_id - 1;
          const start = Math.max(0, end - input.limit);
          return { messages: messages.slice(start, end), has_more: start > 0 };
        },
      },
    });
    const app = createAppModel(daemon.transport);
    await act(async () => {
      await app.thread.getState().open('c1');
    });
    await act(async () => {
      await app.thread.getState().loadEarlier();
    });
    expect(app.thread.getState().thread!.items[0]).toMatchObject({ kind: 'earlier', loading: false, error: expect.objectContaining({ message: expect.any(String) }) });
    fail = false;
    await act(async () => {
      await app.thread.getState().loadEarlier();
    });
    expect(app.thread.getState().thread!.items[0]).toMatchObject({ kind: 'user', text: 'm1' });
    app.dispose();
  });
});

describe('first run', () => {
  it('offers the local Ollama with its models when no provider is configured, and adds it', async () => {
    const daemon = await openWindow(() => ({
      'providers.list': () => ({ providers: [], ollama: { found: true, base_url: 'http://127.0.0.1:11434/v1', models: ['qwen3', 'llama3.2'] } }),
      'providers.add': (input) => ({ name: input.name, primary: true, api_key_ref: null }),
    }));
    const card = await screen.findByRole('region', { name: 'Choose the model Fermix thinks with' });
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(true);
    const local = within(card).getByRole('article', { name: 'Local: Ollama on this computer' });
    expect(local.textContent).toContain('Private and free:');
    expect(within(local).getAllByRole('option').map((option) => option.textContent)).toEqual(['qwen3', 'llama3.2']);
    fireEvent.change(within(local).getByLabelText('Model'), { target: { value: 'llama3.2' } });
    await act(async () => {
      fireEvent.click(within(local).getByRole('button', { name: 'Use Ollama' }));
      await later();
    });
    expect(daemon.calls.find((call) => call.method === 'providers.add')?.input).toEqual({ name: 'local', type: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', primary: true });
  });
});
