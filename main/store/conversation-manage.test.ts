import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConversationStore, DELETE_GRACE_MS, ftsQuery } from './conversations.js';
import { openDatabase } from './database.js';

function open(now: () => Date = () => new Date()) {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-manage-')), 'fermix.db'), { ownsDaemonLock: true });
  return { db, store: createConversationStore(db, now) };
}

describe('conversation management in SQLite (migration 7)', () => {
  it('renames (a typed title wins over a generated one), pins, deletes with restore, and purges after the grace period', () => {
    let clock = new Date('2026-03-01T10:00:00Z');
    const { db, store } = open(() => clock);
    try {
      const auto = store.create('Plan a trip to', 'auto');
      expect(auto).toMatchObject({ pinned: false, title_source: 'auto' });
      expect(store.setGeneratedTitle(auto.id, 'Trip planning')).toMatchObject({ title: 'Trip planning', title_source: 'model' });
      // Written once: a later exchange does not retitle it.
      expect(store.setGeneratedTitle(auto.id, 'Something else')).toBeNull();
      const typed = store.create('My title');
      expect(typed.title_source).toBe('user');
      expect(store.setGeneratedTitle(typed.id, 'Model title')).toBeNull();
      clock = new Date('2026-03-01T11:00:00Z');
      const renamed = store.rename(auto.id, '  Holiday  ');
      expect(renamed).toMatchObject({ title: 'Holiday', title_source: 'user', updated_at: auto.updated_at });
      expect(store.setPinned(typed.id, true).pinned).toBe(true);
      expect(store.list().map((row) => [row.title, row.pinned])).toEqual([['My title', true], ['Holiday', false]]);

      store.appendMessage(typed.id, 'user', 'hello');
      const deleted = store.remove(typed.id);
      expect(deleted.restorable_until).toBe(new Date(clock.getTime() + DELETE_GRACE_MS).toISOString());
      expect(store.list().map((row) => row.id)).toEqual([auto.id]);
      expect(() => store.rename(typed.id, 'x')).toThrow(/No conversation/);
      expect(store.restore(typed.id).title).toBe('My title');
      expect(store.list()).toHaveLength(2);

      store.remove(typed.id);
      clock = new Date(clock.getTime() + DELETE_GRACE_MS - 1000);
      expect(store.purgeDeleted()).toBe(0);
      clock = new Date(clock.getTime() + 2000);
      expect(store.purgeDeleted()).toBe(1);
      expect(() => store.restore(typed.id)).toThrow(/No conversation/);
      // Its messages went with it (ON DELETE CASCADE).
      expect(db.get('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?', [typed.id])).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('searches titles and message text with FTS5: every word, prefix on the last, operators typed as text, deleted ones left out', () => {
    const { db, store } = open();
    try {
      const garden = store.create('Garden');
      store.appendMessage(garden.id, 'user', 'When should I plant tomatoes outdoors?');
      store.appendMessage(garden.id, 'assistant', 'Plant tomatoes after the last frost, when nights stay above 10 °C.');
      const taxes = store.create('Taxes');
      store.appendMessage(taxes.id, 'user', 'Which receipts do I keep for the tomato greenhouse?');
      const tomatoTitle = store.create('Tomato sauce recipe');
      store.appendMessage(tomatoTitle.id, 'user', 'Something else entirely');

      const hits = store.search('tomat');
      // The title match first, then content matches.
      expect(hits[0]).toMatchObject({ conversation: { id: tomatoTitle.id }, snippet: null });
      expect(hits.map((hit) => hit.conversation.id).sort()).toEqual([garden.id, taxes.id, tomatoTitle.id].sort());
      expect(hits.find((hit) => hit.conversation.id === garden.id)?.snippet).toMatch(/tomatoes/);
      expect(store.search('plant frost').map((hit) => hit.conversation.id)).toEqual([garden.id]);
      expect(store.search('plant receipts')).toEqual([]);
      // Typed FTS5 syntax is plain words, never a query error.
      expect(() => store.search('tomato" OR NEAR(* AND')).not.toThrow();
      expect(ftsQuery('  ')).toBeNull();
      expect(ftsQuery('Tomato sauce')).toBe('"tomato" "sauce"*');

      store.remove(garden.id);
      expect(store.search('frost')).toEqual([]);
      store.restore(garden.id);
      expect(store.search('frost').map((hit) => hit.conversation.id)).toEqual([garden.id]);
    } finally {
      db.close();
    }
  });
});
