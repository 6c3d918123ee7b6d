// The live window a model call reads (compactions.ts): messages with their stored shape (`data`), and rows
// without one (written before `data` existed, or damaged) replayed as plain text from `content`, which the
// window query only reads for those rows.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCompactionStore } from './compactions.js';
import { createConversationStore } from './conversations.js';
import { openDatabase } from './database.js';
import { createTurnStore } from './turns.js';

describe('the live window', () => {
  it('reads stored messages whole, and rows without usable data as plain text', () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-window-')), 'fermix.db'), { ownsDaemonLock: true });
    try {
      const conversation = createConversationStore(db).create('Window').id;
      const turns = createTurnStore(db);
      const asked = turns.appendMessage(conversation, null, { role: 'user', text: 'What is in the log?' });
      const called = turns.appendMessage(conversation, null, { role: 'assistant', text: 'Reading it.', toolCalls: [{ id: 'c1', name: 'read_log', args: { path: '/var/log/a' } }] });
      const legacy = turns.appendMessage(conversation, null, { role: 'user', text: 'ignored' });
      const damaged = turns.appendMessage(conversation, null, { role: 'assistant', text: 'ignored', toolCalls: [] });
      db.run("UPDATE messages SET content = 'An older row', data = NULL WHERE id = ?", [legacy]);
      db.run("UPDATE messages SET content = 'A damaged row', data = '{not json' WHERE id = ?", [damaged]);
      expect(createCompactionStore(db).window(conversation)).toEqual({
        summary: null,
        messages: [
          { id: asked, role: 'user', text: 'What is in the log?' },
          { id: called, role: 'assistant', text: 'Reading it.', toolCalls: [{ id: 'c1', name: 'read_log', args: { path: '/var/log/a' } }] },
          { id: legacy, role: 'user', text: 'An older row' },
          { id: damaged, role: 'assistant', text: 'A damaged row', toolCalls: [] },
        ],
      });
    } finally {
      db.close();
    }
  });
});
