// USER.md and MEMORY.md follow the database: rebuilt after each write and forget, owner-written rows
// only (by promote target), 0600 files in a 0700 folder.
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../store/database.js';
import { createTurnStore } from '../store/turns.js';
import { createMemoryService, type MemoryService } from './service.js';

let db: Database;
let dir: string;
let memory: MemoryService;
const owner = { trust: 'operator' as const, origin: 'chat' as const, conversationId: 'c1' };
const guest = { trust: 'guest' as const, origin: 'chat' as const, conversationId: 'c2' };
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

beforeEach(() => {
  const home = mkdtempSync(join(tmpdir(), 'fermix-prompt-files-'));
  db = openDatabase(join(home, 'fermix.db'), { ownsDaemonLock: true });
  dir = join(home, 'memory', 'main');
  memory = createMemoryService({ db, promptFilesDir: dir });
  const turns = createTurnStore(db);
  turns.ensureConversation('c1', 'Trip planning');
  turns.ensureConversation('c2', 'Shared chat');
});
afterEach(() => db.close());

describe('USER.md and MEMORY.md', () => {
  it('exist from the start and are rebuilt after each write and forget, from owner-written memories only', () => {
    expect(read('USER.md')).toContain('(nothing yet)');
    memory.store({ key: 'timezone', value: 'Europe/Lisbon', category: 'identity' }, owner);
    memory.store({ key: 'build', value: 'run npm test\nbefore pushing', category: 'directive', scope: 'agent' }, owner);
    memory.store({ key: 'favourite', value: 'guest cake', category: 'preference', scope: 'agent' }, guest);
    expect(read('USER.md')).toContain('- **timezone** (identity): Europe/Lisbon');
    expect(read('MEMORY.md')).toContain('- **build** (directive): run npm test before pushing');
    expect(read('USER.md') + read('MEMORY.md')).not.toContain('guest cake');

    memory.forget('timezone');
    expect(read('USER.md')).not.toContain('timezone');
    expect(read('MEMORY.md')).toContain('build');
  });

  it('are the owner\'s: 0600 files in a 0700 folder', () => {
    memory.store({ key: 'timezone', value: 'Europe/Lisbon', category: 'identity' }, owner);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of ['USER.md', 'MEMORY.md']) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  });

  it('are left alone at start when current, and rewritten when someone edited them or their mode', () => {
    memory.store({ key: 'timezone', value: 'Europe/Lisbon', category: 'identity' }, owner);
    const current = statSync(join(dir, 'USER.md'));
    createMemoryService({ db, promptFilesDir: dir }); // a daemon start
    expect(statSync(join(dir, 'USER.md')).ino).toBe(current.ino); // not replaced: rewriting goes through a rename

    writeFileSync(join(dir, 'USER.md'), 'edited by hand');
    chmodSync(join(dir, 'MEMORY.md'), 0o644);
    createMemoryService({ db, promptFilesDir: dir });
    expect(read('USER.md')).toContain('- **timezone** (identity): Europe/Lisbon');
    expect(statSync(join(dir, 'MEMORY.md')).mode & 0o777).toBe(0o600);
  });
});
