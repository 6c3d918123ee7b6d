import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HOUSEKEEPING_DELAY_MS, startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { createAttachmentStore } from '../main/store/attachments.js';
import { openDatabase } from '../main/store/database.js';
import { tempHome, waitFor } from './support/daemon-process.js';

/**
 * What the daemon tidies once per start (expired deleted conversations, uploads never sent) it does just
 * after it answers (compose.ts, HOUSEKEEPING_DELAY_MS), not on the start path: checked here end to end.
 */
describe('start-up housekeeping', () => {
  let daemon: RunningDaemon | undefined;
  afterEach(async () => {
    await daemon?.stop('test done');
    daemon = undefined;
  });

  it('purges conversations deleted past their Undo and uploads never sent, shortly after the daemon answers', async () => {
    const home = tempHome('fermix-housekeeping-');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    const before = openDatabase(join(home, 'fermix.db'), { ownsDaemonLock: true });
    const insert = (id: string, deletedAt: string | null) => before.run('INSERT INTO conversations (id, title, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?)', [id, id, twoDaysAgo.toISOString(), twoDaysAgo.toISOString(), deletedAt]);
    insert('expired', twoDaysAgo.toISOString());
    insert('undoable', new Date().toISOString());
    insert('kept', null);
    const stale = createAttachmentStore({ db: before, home, now: () => twoDaysAgo }).save({ conversationId: 'kept', direction: 'in', filename: 'draft.txt', mimeType: 'text/plain', bytes: Buffer.from('never sent') });
    before.close();

    const started = Date.now();
    daemon = await startDaemon({ home, port: 0 });
    const ids = () => daemon!.db.all<{ id: string }>('SELECT id FROM conversations ORDER BY id').map((row) => row.id);
    await waitFor(() => !ids().includes('expired'), 10_000, 'the expired conversation to be purged');
    expect(Date.now() - started).toBeGreaterThanOrEqual(HOUSEKEEPING_DELAY_MS);
    expect(ids()).toEqual(['kept', 'undoable']);
    await waitFor(() => daemon!.db.get('SELECT id FROM attachments WHERE id = ?', [stale.id]) === undefined, 10_000, 'the stale upload to be swept');
    expect(existsSync(join(home, stale.path))).toBe(false);
  });
});
