import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES, checkAttachmentsBeforeUpload } from '../api/attachment-rules.js';
import { isFermixError } from '../core/errors.js';
import { checkedMimeType, conversationDir, decodeAttachment, diskName, displayName } from './attachment-files.js';
import { createAttachmentStore } from './attachments.js';
import { openDatabase, type Database } from './database.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let db: Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

function open(start = new Date('2026-03-01T10:00:00Z')) {
  const home = mkdtempSync(join(tmpdir(), 'fermix-attach-'));
  db = openDatabase(join(home, 'fermix.db'), { ownsDaemonLock: true });
  let clock = start.getTime();
  const store = createAttachmentStore({ db, home, now: () => new Date(clock) });
  return { home, db, store, advance: (ms: number) => (clock += ms) };
}

/** The FermixError a call throws (fails the test when it does not throw one). */
function thrown(work: () => unknown) {
  try {
    work();
  } catch (error) {
    if (isFermixError(error)) return error;
    throw error;
  }
  throw new Error('expected a FermixError');
}

describe('attachment names, types and base64', () => {
  it('keeps only the last path segment of a name, so "../../x" can never leave the folder', () => {
    expect(displayName('../../x')).toBe('x');
    expect(displayName('..\\..\\Windows\\evil.dll')).toBe('evil.dll');
    expect(displayName('re\u202Egnp.exe')).toBe('regnp.exe'); // the bidi override is gone
    expect(thrown(() => displayName('../..')).code).toBe('attachment_invalid');
    expect(thrown(() => displayName('a/')).message).toContain('"a/" has no usable name');
    expect(diskName('.bashrc')).toBe('bashrc');
    expect(diskName('Ünïcode résumé (1).pdf')).toBe('Unicode_resume_1_.pdf');
    expect(diskName('日本語')).toBe('file');
    expect(diskName(`${'a'.repeat(300)}.txt`)).toMatch(/^a{96}\.txt$/);
    expect(conversationDir('..')).toBe('__');
    expect(conversationDir('work:session.1')).toBe('work_session_1');
  });

  it('checks the size from the base64 length, then the alphabet, then emptiness, naming the file', () => {
    const big = 'A'.repeat(Math.ceil((MAX_ATTACHMENT_BYTES + 10) / 3) * 4);
    const tooLarge = thrown(() => decodeAttachment('video.mp4', big));
    expect(tooLarge).toMatchObject({ code: 'attachment_too_large', message: '"video.mp4" is 20,971,530 bytes; a chat attachment can be at most 20 MB.' });
    expect(tooLarge.hint).toMatch(/smaller file/);
    expect(thrown(() => decodeAttachment('a.txt', 'not base64!')).toWire()).toMatchObject({ code: 'attachment_invalid', message: '"a.txt" did not arrive as valid base64.' });
    expect(thrown(() => decodeAttachment('a.txt', 'abc')).code).toBe('attachment_invalid');
    expect(thrown(() => decodeAttachment('empty.txt', '')).message).toBe('"empty.txt" is empty (0 bytes).');
    expect(Buffer.from(decodeAttachment('a.txt', Buffer.from('hello').toString('base64'))).toString()).toBe('hello');
    // The window's check before upload says the same sentence as the daemon.
    expect(checkAttachmentsBeforeUpload([{ name: 'video.mp4', size: MAX_ATTACHMENT_BYTES + 10 }])?.message).toBe(tooLarge.message);
    expect(checkAttachmentsBeforeUpload(Array.from({ length: 11 }, (_, index) => ({ name: `f${index}`, size: 1 })))?.toWire()).toMatchObject({ code: 'attachment_too_many', message: 'A message can carry at most 10 files; this one has 11.' });
    expect(checkAttachmentsBeforeUpload([{ name: 'ok.txt', size: 5 }])).toBeNull();
  });

  it('records the real image type, refuses an "image" that is not one, and types an undeclared PNG or PDF', () => {
    expect(checkedMimeType('a.png', 'image/png', PNG)).toBe('image/png');
    expect(checkedMimeType('a.jpg', 'image/jpeg', PNG)).toBe('image/png');
    expect(checkedMimeType('a.bin', '', PNG)).toBe('image/png');
    expect(checkedMimeType('doc', 'application/octet-stream', Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(checkedMimeType('notes.txt', 'text/plain; charset=UTF-8', Buffer.from('hi'))).toBe('text/plain');
    expect(thrown(() => checkedMimeType('fake.png', 'image/png', Buffer.from('hello'))).message).toBe('"fake.png" is declared image/png but its bytes are not a PNG image.');
    expect(thrown(() => checkedMimeType('x', 'not a type', Buffer.from('x'))).code).toBe('attachment_invalid');
  });
});

describe('the attachments store', () => {
  it('writes the bytes 0600 in a 0700 folder per conversation, records the row, and reads it back by id', () => {
    const { home, store } = open();
    const record = store.save({ conversationId: 'c1', direction: 'in', filename: '../../notes.txt', mimeType: 'text/plain', bytes: Buffer.from('buy milk') });
    expect(record).toMatchObject({ conversation_id: 'c1', direction: 'in', filename: 'notes.txt', mime_type: 'text/plain', bytes: 8, turn_id: null });
    expect(record.path).toBe(`attachments/c1/${record.id}-notes.txt`);
    const file = join(home, record.path);
    expect(readFileSync(file, 'utf8')).toBe('buy milk');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'attachments', 'c1')).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'attachments')).mode & 0o777).toBe(0o700);
    expect(readdirSync(home)).not.toContain('notes.txt');
    expect(Buffer.from(store.read(record.id).bytes).toString()).toBe('buy milk');
    expect(store.list('c1').map((row) => row.id)).toEqual([record.id]);
    expect(store.list('c2')).toEqual([]);
  });

  it('answers attachment_not_found for unknown ids and for a file gone from disk, and never reads a path outside attachments/', () => {
    const { home, db, store } = open();
    expect(thrown(() => store.read('nope')).toWire()).toMatchObject({ code: 'attachment_not_found', message: 'No attachment with id nope.' });
    const record = store.save({ conversationId: 'c1', direction: 'out', filename: 'a.txt', mimeType: 'text/plain', bytes: Buffer.from('a') });
    // A tampered row pointing at the database itself is treated as missing, not read.
    db.run('UPDATE attachments SET path = ? WHERE id = ?', ['fermix.db', record.id]);
    expect(thrown(() => store.read(record.id)).code).toBe('attachment_not_found');
    expect(store.readBytes(record.id)).toBeNull();
    db.run('UPDATE attachments SET path = ? WHERE id = ?', ['attachments/../config.toml', record.id]);
    writeFileSync(join(home, 'config.toml'), 'secret = 1');
    expect(store.readBytes(record.id)).toBeNull();
    expect(resolve(home, 'attachments/../config.toml')).toBe(join(home, 'config.toml'));
  });

  it('lets a send claim only staged uploads of its own conversation, once', () => {
    const { store } = open();
    const mine = store.save({ conversationId: 'c1', direction: 'in', filename: 'a.txt', mimeType: 'text/plain', bytes: Buffer.from('a') });
    const other = store.save({ conversationId: 'c2', direction: 'in', filename: 'b.txt', mimeType: 'text/plain', bytes: Buffer.from('b') });
    const agents = store.save({ conversationId: 'c1', direction: 'out', filename: 'c.txt', mimeType: 'text/plain', bytes: Buffer.from('c') });
    expect(store.claimable([mine.id, mine.id], 'c1').map((row) => row.id)).toEqual([mine.id]);
    expect(thrown(() => store.claimable([other.id], 'c1')).message).toBe(`Attachment "b.txt" (${other.id}) was uploaded to conversation c2, not to c1.`);
    expect(thrown(() => store.claimable([agents.id], 'c1')).message).toContain('was sent by the agent');
    expect(thrown(() => store.claimable(['missing'], 'c1')).code).toBe('attachment_not_found');
    store.claim([mine.id], 'T1');
    expect(store.get(mine.id).turn_id).toBe('T1');
    expect(thrown(() => store.claimable([mine.id], 'c1')).message).toContain('already went with an earlier message');
    // A sent file cannot be discarded; a staged one can, file and row.
    expect(store.discard(mine.id)).toBe(false);
    const staged = store.save({ conversationId: 'c1', direction: 'in', filename: 'd.txt', mimeType: 'text/plain', bytes: Buffer.from('d') });
    const file = join(store.root, '..', staged.path);
    expect(store.discard(staged.id)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(store.find(staged.id)).toBeUndefined();
  });

  it('sweeps uploads no message claimed within a day, and keeps sent ones', () => {
    const { store, advance } = open();
    const sent = store.save({ conversationId: 'c1', direction: 'in', filename: 'a.txt', mimeType: 'text/plain', bytes: Buffer.from('a') });
    store.claim([sent.id], 'T1');
    const abandoned = store.save({ conversationId: 'c1', direction: 'in', filename: 'b.txt', mimeType: 'text/plain', bytes: Buffer.from('b') });
    advance(60 * 60 * 1000);
    expect(store.sweepStaged()).toBe(0);
    advance(24 * 60 * 60 * 1000);
    const fresh = store.save({ conversationId: 'c1', direction: 'in', filename: 'c.txt', mimeType: 'text/plain', bytes: Buffer.from('c') });
    expect(store.sweepStaged()).toBe(1);
    expect(store.find(abandoned.id)).toBeUndefined();
    expect(store.find(sent.id)).toBeDefined();
    expect(store.find(fresh.id)).toBeDefined();
  });
});
