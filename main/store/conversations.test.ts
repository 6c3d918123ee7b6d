import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../api/dispatcher.js';
import { createConversationStore } from './conversations.js';
import { openDatabase } from './database.js';

describe('conversations.get pages', () => {
  it('returns the newest `limit` messages oldest first, has_more, and pages back with before_id', async () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-conv-')), 'fermix.db'), { ownsDaemonLock: true });
    try {
      const conversations = createConversationStore(db);
      const row = conversations.create('Long');
      db.transaction(() => {
        for (let index = 1; index <= 450; index += 1) conversations.appendMessage(row.id, index % 2 ? 'user' : 'assistant', `message ${index}`);
      });
      const dispatcher = createDispatcher({
        'conversations.get': (input) => ({ conversation: conversations.get(input.id), ...conversations.page(input.id, input.limit, input.before_id) }),
      });
      const call = (input: unknown) => dispatcher.dispatch('conversations.get', input, { transport: 'in-process', trust: 'operator' }) as Promise<any>;
      const newest = (await call({ id: row.id })).result;
      // The default page is 200, not the whole conversation.
      expect(newest.messages).toHaveLength(200);
      expect(newest.has_more).toBe(true);
      expect(newest.messages[0].content).toBe('message 251');
      expect(newest.messages.at(-1).content).toBe('message 450');
      const older = (await call({ id: row.id, limit: 300, before_id: newest.messages[0].id })).result;
      expect(older.messages).toHaveLength(250);
      expect(older.has_more).toBe(false);
      expect(older.messages[0].content).toBe('message 1');
      expect(await call({ id: row.id, limit: 5001 })).toMatchObject({ ok: false });
      expect(await call({ id: 'nope' })).toMatchObject({ ok: false, error: { code: 'conversation_not_found' } });
    } finally {
      db.close();
    }
  });
});
