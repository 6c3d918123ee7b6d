// send_attachment's desktop port: the agent's file is recorded (direction out), announced on the
// conversation stream, and served back by attachments.get; over the CLI socket a large one is refused clearly.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../api/dispatcher.js';
import type { EventEnvelope } from '../api/events.js';
import { createAttachmentStore } from '../store/attachments.js';
import { openDatabase, type Database } from '../store/database.js';
import { createAttachmentHandlers } from './attachment-handlers.js';
import { createAttachmentSink } from './attachment-sink.js';
import { createEventBus } from './event-bus.js';

let db: Database | undefined;
afterEach(() => db?.close());

describe('the agent attachment sink', () => {
  it('stores the file as an out row, emits chat.attachment with its id, and attachments.get returns the bytes', async () => {
    const home = mkdtempSync(join(tmpdir(), 'fermix-sink-'));
    db = openDatabase(join(home, 'fermix.db'), { ownsDaemonLock: true });
    const store = createAttachmentStore({ db, home });
    const events = createEventBus();
    const seen: EventEnvelope[] = [];
    events.subscribe((event) => void seen.push(event));
    const sink = createAttachmentSink({ store, events });
    const bytes = Buffer.alloc(4 * 1024 * 1024, 'x');
    const { id } = await sink.send({ conversationId: 'c9', kind: 'document', path: '/workspace/report.txt', filename: 'report.txt', mimeType: 'text/plain', bytes, caption: 'The report' });
    expect(store.get(id!)).toMatchObject({ conversation_id: 'c9', direction: 'out', filename: 'report.txt', bytes: bytes.length, turn_id: null });
    expect(readFileSync(join(home, store.get(id!).path)).equals(bytes)).toBe(true);
    expect(seen.map((event) => [event.stream, event.type, event.payload])).toEqual([
      ['c9', 'chat.attachment', { conversation_id: 'c9', id, filename: 'report.txt', mime_type: 'text/plain', kind: 'document', bytes: bytes.length, caption: 'The report' }],
    ]);

    db.run("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c9', 't', 'x', 'x')");
    const dispatcher = createDispatcher(createAttachmentHandlers({ store, db }));
    const window = await dispatcher.dispatch('attachments.get', { id }, { transport: 'http', trust: 'operator' });
    expect(window.ok && Buffer.from((window.result as { base64: string }).base64, 'base64').equals(bytes)).toBe(true);
    // 4 MB is more than a control-socket frame holds: the CLI gets a clear refusal, not a broken frame.
    const cli = await dispatcher.dispatch('attachments.get', { id }, { transport: 'socket', trust: 'operator' });
    expect(cli).toMatchObject({ ok: false, error: { code: 'attachment_too_large', message: '"report.txt" is 4 MB, more than the command line can fetch (about 3 MB).' } });
    expect(!cli.ok && cli.error.hint).toContain(`attachments/c9/${id}-report.txt`);
  });
});
