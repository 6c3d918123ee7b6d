import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../store/database.js';
import { createTurnStore } from '../../store/turns.js';
import { createStreamCheckpoint } from './stream-checkpoint.js';

function setup() {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-draft-')), 'fermix.db'), { ownsDaemonLock: true });
  const store = createTurnStore(db);
  store.ensureConversation('c1', 'test');
  store.createTurn('t1', 'c1', { trust: 'operator', origin: 'chat', interactive: true, kind: 'interactive' });
  const assistantRows = () => db.all<{ id: number; content: string; data: string }>("SELECT id, content, data FROM messages WHERE turn_id = 't1' AND role = 'assistant' ORDER BY id");
  return { db, store, assistantRows };
}

async function until(predicate: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !predicate(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('streamed-text checkpoint', () => {
  it('saves the first text at once and later text within the interval, in one row', async () => {
    const { db, store, assistantRows } = setup();
    // The clock stands still, so "within the interval" does not depend on how fast this machine is;
    // the trailing save still comes from the real 40 ms timer.
    const draft = createStreamCheckpoint(store, 'c1', 't1', 40, () => 1_000);
    draft.update('Hel');
    expect(assistantRows().map((row) => row.content)).toEqual(['Hel']);
    draft.update('Hello, wor');
    expect(assistantRows()[0].content).toBe('Hel'); // not yet: at most once per interval
    await until(() => assistantRows()[0].content === 'Hello, wor');
    expect(assistantRows()).toHaveLength(1);
    expect(JSON.parse(assistantRows()[0].data)).toEqual({ role: 'assistant', text: 'Hello, wor', toolCalls: [], partial: true });
    // What a restart after kill -9 shows for the turn.
    expect(store.lastAnswers('c1', ['t1']).get('t1')).toBe('Hello, wor');
    draft.dispose();
    db.close();
  });

  it('turns the draft into the final message of the step, tool calls included', () => {
    const { db, store, assistantRows } = setup();
    const draft = createStreamCheckpoint(store, 'c1', 't1', 60_000);
    draft.update('Let me look');
    draft.update('Let me look that up.');
    draft.finish({ role: 'assistant', text: 'Let me look that up.', toolCalls: [{ id: 'call_1', name: 'file_read', args: { path: 'a' } }] });
    const rows = assistantRows();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].data)).toEqual({ role: 'assistant', text: 'Let me look that up.', toolCalls: [{ id: 'call_1', name: 'file_read', args: { path: 'a' } }] });
    // The next step starts a new draft row after the first.
    draft.update('Found it');
    draft.finish({ role: 'assistant', text: 'Found it.', toolCalls: [] });
    expect(assistantRows().map((row) => row.content)).toEqual(['Let me look that up.', 'Found it.']);
    expect(store.history('c1').map((message) => message.text)).toEqual(['Let me look that up.', 'Found it.']);
    db.close();
  });

  it('flush saves pending text at once; a step with no text writes one plain row', () => {
    const { db, store, assistantRows } = setup();
    const draft = createStreamCheckpoint(store, 'c1', 't1', 60_000);
    draft.update('a');
    draft.update('ab');
    draft.flush();
    expect(assistantRows()[0].content).toBe('ab');
    draft.finish({ role: 'assistant', text: 'ab', toolCalls: [], partial: true });
    const other = createStreamCheckpoint(store, 'c1', 't1', 60_000);
    other.finish({ role: 'assistant', text: '', toolCalls: [{ id: 'c2', name: 'x', args: {} }] });
    expect(assistantRows()).toHaveLength(2);
    db.close();
  });
});
