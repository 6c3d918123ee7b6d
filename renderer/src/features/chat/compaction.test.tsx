// Where a conversation was compacted: the thread shows a marker after the last replaced message (from
// chat.history's compactions), the marker opens the summary, and /compact calls chat.compact and
// shows the new cut. Over the real dispatcher with scripted handlers, in jsdom.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createAppModel } from '../../app/app-model.js';
import { inProcessDaemon } from '../../testing/in-process-daemon.js';
import { CompactionMarker } from './items/compaction-marker.js';
import { parseSlashCommand } from './slash-commands.js';

afterEach(cleanup);

const time = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const messages = Array.from({ length: 8 }, (_, index) => ({ id: index + 1, role: (index % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `message ${index + 1}`, created_at: time(index), turn_id: null }));
const compaction = (id: number, through: number, summary: string) => ({ id, through_message_id: through, summary, reason: 'manual' as const, replaced_messages: through, tokens_before: 9_000, tokens_after: 1_200, created_at: time(20) });

describe('compaction in the chat window', () => {
  it('puts the marker after the last replaced message, and /compact shows the new cut', async () => {
    const cuts = [compaction(1, 4, 'The person planned a Lisbon trip.')];
    const daemon = inProcessDaemon({
      handlers: {
        'chat.history': () => ({ messages, has_more: false, compactions: cuts }),
        'chat.compact': () => {
          cuts.push(compaction(2, 6, 'Merged summary.'));
          return { compacted: true, compaction: cuts[1] };
        },
      },
    });
    const app = createAppModel(daemon.transport);
    await act(async () => {
      await app.thread.getState().open('c1');
    });
    const kinds = () => app.thread.getState().thread!.items.map((item) => (item.kind === 'compaction' ? `cut:${item.id}` : item.kind === 'notice' ? 'notice' : (item as { text?: string }).text));
    expect(kinds()).toEqual(['message 1', 'message 2', 'message 3', 'message 4', 'cut:1', 'message 5', 'message 6', 'message 7', 'message 8']);

    await act(async () => {
      await app.thread.getState().submit('/compact');
    });
    expect(daemon.calls.filter((call) => call.method === 'chat.compact').map((call) => call.input)).toEqual([{ conversation_id: 'c1' }]);
    expect(kinds().slice(0, 9)).toEqual(['message 1', 'message 2', 'message 3', 'message 4', 'cut:1', 'message 5', 'message 6', 'cut:2', 'message 7']);
    const said = app.thread.getState().thread!.items.filter((item) => item.kind === 'notice').map((item) => (item as { text: string }).text);
    expect(said.at(-1)).toContain('6 messages are summarized');
    app.dispose();
  });

  it('says so when there is nothing to compact, and refuses /compact with an argument', async () => {
    const daemon = inProcessDaemon({
      handlers: {
        'chat.history': () => ({ messages: messages.slice(0, 2), has_more: false }),
        'chat.compact': () => ({ compacted: false, compaction: null }),
      },
    });
    const app = createAppModel(daemon.transport);
    await act(async () => {
      await app.thread.getState().open('c1');
      await app.thread.getState().submit('/compact');
    });
    const said = app.thread.getState().thread!.items.filter((item) => item.kind === 'notice').map((item) => (item as { text: string }).text);
    expect(said.at(-1)).toBe('Nothing to compact: the conversation is already short.');
    expect(parseSlashCommand('/compact now')).toMatchObject({ name: 'invalid', message: '/compact takes nothing.' });
    expect(parseSlashCommand('/COMPACT')).toEqual({ name: 'compact' });
    app.dispose();
  });

  it('the marker opens the summary the model now reads', () => {
    render(<CompactionMarker item={{ kind: 'compaction', key: 'c:1', id: 1, summary: 'The person planned a Lisbon trip.', replaced: 1204, reason: 'auto', createdAt: time(0) }} />);
    const button = screen.getByRole('button', { name: 'Conversation compacted here — read the summary' });
    expect(screen.queryByLabelText('Compaction summary')).toBeNull();
    expect(screen.getByLabelText('Conversation compacted').textContent).toContain('1,204 earlier messages summarized automatically');
    fireEvent.click(button);
    expect(screen.getByLabelText('Compaction summary').textContent).toBe('The person planned a Lisbon trip.');
    expect(button.getAttribute('aria-expanded')).toBe('true');
  });
});
