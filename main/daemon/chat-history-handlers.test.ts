import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../api/dispatcher.js';
import { openDatabase } from '../store/database.js';
import { createCompactionStore } from '../store/compactions.js';
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

  it('lists the compactions cut inside each page (default page 200 messages)', async () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-history-')), 'fermix.db'), { ownsDaemonLock: true });
    try {
      const turns = createTurnStore(db);
      const compactions = createCompactionStore(db);
      turns.ensureConversation('c2', 'Compacted');
      const ids: number[] = [];
      db.transaction(() => {
        for (let index = 1; index <= 300; index += 1) ids.push(turns.appendMessage('c2', null, index % 2 ? { role: 'user', text: `q${index}` } : { role: 'assistant', text: `a${index}`, toolCalls: [] }));
      });
      const base = { conversation_id: 'c2', reason: 'auto' as const, tokens_before: 9_000, tokens_after: 1_000, provider: 'main', model: 'm' };
      compactions.add({ ...base, through_message_id: ids[49], summary: 'first summary', replaced_messages: 50 });
      compactions.add({ ...base, through_message_id: ids[249], summary: 'second summary', replaced_messages: 250 });
      const dispatcher = createDispatcher(createChatHistoryHandlers({ db }));
      const call = (input: unknown) => dispatcher.dispatch('chat.history', input, { transport: 'in-process', trust: 'operator' }) as Promise<any>;
      const newest = (await call({ conversation_id: 'c2' })).result;
      expect(newest.messages).toHaveLength(200);
      expect(newest.compactions).toMatchObject([{ through_message_id: ids[249], summary: 'second summary', replaced_messages: 250, reason: 'auto' }]);
      const older = (await call({ conversation_id: 'c2', before_id: newest.messages[0].id })).result;
      expect(older.compactions.map((c: any) => c.summary)).toEqual(['first summary']);
    } finally {
      db.close();
    }
  });
});
