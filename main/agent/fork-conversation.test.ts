// chat.fork's store part on a real SQLite database: the copy holds exactly the messages before the turn,
// the original is untouched, and an unfinished turn or a turn of another conversation is refused by tag.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFermixError } from '../core/errors.js';
import { openDatabase, type Database } from '../store/database.js';
import { createTurnStore } from '../store/turns.js';
import { forkBeforeTurn } from './fork-conversation.js';

let db: Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

function conversationWithTwoTurns() {
  db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-fork-')), 'fermix.db'), { ownsDaemonLock: true });
  const store = createTurnStore(db);
  store.ensureConversation('c1', 'Trip');
  const turn = (id: string, message: string, answer: string) => {
    store.createTurn(id, 'c1', { trust: 'operator', origin: 'chat', interactive: true, kind: 'interactive', message });
    store.appendMessage('c1', id, { role: 'user', text: message });
    store.appendMessage('c1', id, { role: 'assistant', text: answer, toolCalls: [] });
    store.finishTurn(id, { status: 'completed' });
  };
  turn('T1', 'Plan a trip', 'Go by train.');
  turn('T2', 'And the hotel?', 'Near the station.');
  return { db, store };
}

const contents = (database: Database, conversationId: string) => database.all<{ content: string }>('SELECT content FROM messages WHERE conversation_id = ? ORDER BY id', [conversationId]).map((row) => row.content);

function codeOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (isFermixError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a FermixError');
}

describe('forkBeforeTurn', () => {
  it('copies the messages before the turn into a new conversation and leaves the original as it was', () => {
    const { db: database, store } = conversationWithTwoTurns();
    const regenerated = forkBeforeTurn(database, store, { conversation_id: 'c1', turn_id: 'T2' });
    expect(regenerated).toMatchObject({ title: 'Trip (retry)', message: 'And the hotel?' });
    expect(contents(database, regenerated.conversation_id)).toEqual(['Plan a trip', 'Go by train.']);
    const edited = forkBeforeTurn(database, store, { conversation_id: 'c1', turn_id: 'T1', message: 'Plan a short trip' });
    expect(edited).toMatchObject({ title: 'Trip (edited)', message: 'Plan a short trip' });
    expect(contents(database, edited.conversation_id)).toEqual([]);
    expect(contents(database, 'c1')).toEqual(['Plan a trip', 'Go by train.', 'And the hotel?', 'Near the station.']);
  });

  it('refuses a turn that has not finished, and a turn of another conversation', () => {
    const { db: database, store } = conversationWithTwoTurns();
    store.createTurn('T3', 'c1', { trust: 'operator', origin: 'chat', interactive: true, kind: 'interactive', message: 'more' });
    expect(codeOf(() => forkBeforeTurn(database, store, { conversation_id: 'c1', turn_id: 'T3' }))).toBe('turn_running');
    store.ensureConversation('c2', 'Other');
    expect(codeOf(() => forkBeforeTurn(database, store, { conversation_id: 'c2', turn_id: 'T1' }))).toBe('turn_not_found');
  });
});
