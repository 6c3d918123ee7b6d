import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../api/dispatcher.js';
import { openDatabase } from '../store/database.js';
import { createTurnStore } from '../store/turns.js';
import { createChatHistoryHandlers } from './chat-history-handlers.js';

describe('chat.history', () => {
  it('returns the newest messages oldest first, each with its turn, and pages back with before_id', async () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-history-')), 'fermix.db'), { ownsDaemonLock: true });
    try {
      const turns = createTurnStore(db);
      turns.ensureConversation('c1', 'History');
      for (let index = 1; index <= 3; index += 1) {
        turns.createTurn(`T${index}`, 'c1', { trust: 'operator', origin: 'chat', interactive: true, kind: 'interactive' });
        turns.appendMessage('c1', `T${index}`, { role: 'user', text: `question ${index}` });
        turns.appendMessage('c1', `T${index}`, { role: 'assistant', text: `answer ${index}`, toolCalls: [] });
      }
      const dispatcher = createDispatcher(createChatHistoryHandlers({ db }));
      const call = (input: unknown) => dispatcher.dispatch('chat.history', input, { transport: 'in-process', trust: 'operator' }) as Promise<any>;
      const newest = await call({ conversation_id: 'c1', limit: 4 });
      expect(newest.result.has_more).toBe(true);
      expect(newest.result.messages.map((m: any) => `${m.turn_id}:${m.content}`)).toEqual(['T2:question 2', 'T2:answer 2', 'T3:question 3', 'T3:answer 3']);
      const older = await call({ conversation_id: 'c1', limit: 4, before_id: newest.result.messages[0].id });
      expect(older.result).toMatchObject({ has_more: false, messages: [{ content: 'question 1', turn_id: 'T1' }, { content: 'answer 1' }] });
      expect(await call({ conversation_id: 'nope' })).toMatchObject({ ok: false, error: { code: 'conversation_not_found' } });
    } finally {
      db.close();
    }
  });
});
