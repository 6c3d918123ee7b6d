// chat.history returns tool-result images (the window shows them after a reload), the newest 3 of the
// conversation, from the messages the loop wrote; older results say how many they had. Real SQLite.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createChatHistoryHandlers } from '../daemon/chat-history-handlers.js';
import { openDatabase } from './database.js';
import { createTurnStore } from './turns.js';

function open() {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-tool-images-')), 'fermix.db'), { ownsDaemonLock: true });
  const turns = createTurnStore(db);
  const history = createChatHistoryHandlers({ db })['chat.history'];
  const page = async (conversation_id: string, limit = 200, before_id?: number) => (await history({ conversation_id, limit, before_id }, { transport: 'in-process', trust: 'operator' })).messages;
  return { db, turns, page };
}

const image = (n: number) => ({ mimeType: 'image/png', base64: `shot-${n}` });

describe('tool images in chat.history', () => {
  it('returns the newest 3 images of the conversation with their results, and counts the older ones', async () => {
    const { db, turns, page } = open();
    try {
      turns.ensureConversation('c1', 'Screens');
      turns.ensureConversation('c2', 'Other');
      turns.appendMessage('c1', null, { role: 'user', text: 'look' });
      const call = (id: string) => turns.appendMessage('c1', null, { role: 'assistant', text: '', toolCalls: [{ id, name: 'browser', args: {} }] });
      call('a');
      const first = turns.appendMessage('c1', null, { role: 'tool', callId: 'a', name: 'browser', text: 'one', isError: false, images: [image(1)] });
      call('b');
      const plain = turns.appendMessage('c1', null, { role: 'tool', callId: 'b', name: 'browser', text: 'no image', isError: false });
      call('c');
      const pair = turns.appendMessage('c1', null, { role: 'tool', callId: 'c', name: 'computer_use', text: 'two', isError: false, images: [image(2), image(3)] });
      call('d');
      const last = turns.appendMessage('c1', null, { role: 'tool', callId: 'd', name: 'computer_use', text: 'four', isError: false, images: [image(4)] });
      // Another conversation's newer screenshots do not push this one's out.
      turns.appendMessage('c2', null, { role: 'tool', callId: 'x', name: 'browser', text: 'x', isError: false, images: [image(9), image(9), image(9)] });

      const byId = new Map((await page('c1')).map((message) => [message.id, message]));
      expect(byId.get(last)).toMatchObject({ images: [{ mime_type: 'image/png', base64: 'shot-4' }] });
      expect(byId.get(last)?.images_omitted).toBeUndefined();
      expect(byId.get(pair)).toMatchObject({ images: [{ mime_type: 'image/png', base64: 'shot-2' }, { mime_type: 'image/png', base64: 'shot-3' }] });
      expect(byId.get(first)).toMatchObject({ images_omitted: 1 });
      expect(byId.get(first)?.images).toBeUndefined();
      expect(byId.get(plain)?.images).toBeUndefined();
      expect(byId.get(plain)?.images_omitted).toBeUndefined();
      // Paging back: the older page still knows what is kept from the whole conversation, not its own page.
      const older = await page('c1', 2, pair);
      expect(older.map((message) => message.id)).toEqual([plain, pair - 1]);
      const oldest = await page('c1', 2, plain - 1);
      expect(oldest.find((message) => message.id === first)).toMatchObject({ images_omitted: 1 });
      // A fifth image moves the cut: the oldest of the pair is no longer returned.
      call('e');
      turns.appendMessage('c1', null, { role: 'tool', callId: 'e', name: 'browser', text: 'five', isError: false, images: [image(5)] });
      const after = new Map((await page('c1')).map((message) => [message.id, message]));
      expect(after.get(pair)).toMatchObject({ images: [{ base64: 'shot-3' }], images_omitted: 1 });
    } finally {
      db.close();
    }
  });
});
