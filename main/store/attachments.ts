/**
 * Chat attachments (migration 3): files the person attaches to a message (`in`) and files the agent sends
 * (`out`, send_attachment). Bytes live under $FERMIX_HOME/attachments/<conversation>/<id>-<name> (folders
 * 0700, files 0600); the row keeps the path relative to the home. Lookups go by id only: a caller never
 * names a path, and a recorded path that leads outside attachments/ is treated as missing.
 *
 * An upload is staged (turn_id NULL) until chat.send claims it for the turn whose message carries it.
 * Uploads never sent (the window closed, the send failed) are swept after a day.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { FermixError } from '../core/errors.js';
import { conversationDir, diskName, displayName } from './attachment-files.js';
import type { Database } from './database.js';

export type AttachmentDirection = 'in' | 'out';

export interface AttachmentRecord {
  id: string;
  conversation_id: string;
  direction: AttachmentDirection;
  filename: string;
  mime_type: string;
  bytes: number;
  /** Relative to the Fermix home, e.g. attachments/c1/<id>-notes.txt. */
  path: string;
  turn_id: string | null;
  created_at: string;
}

/** What a stored message and the window carry: enough to show a chip and to read the bytes by id. */
export interface AttachmentRef {
  id: string;
  filename: string;
  mime_type: string;
  bytes: number;
}

export interface SaveInput {
  conversationId: string;
  direction: AttachmentDirection;
  filename: string;
  mimeType: string;
  bytes: Uint8Array;
  turnId?: string | null;
}

/** A day: long enough for a slow send, short enough that abandoned uploads do not pile up. */
export const STAGED_TTL_MS = 24 * 60 * 60 * 1000;

const SEND_AGAIN = 'Attach the file again in this conversation (the window uploads it when you send), then send the message.';

export function toRef(record: AttachmentRecord): AttachmentRef {
  return { id: record.id, filename: record.filename, mime_type: record.mime_type, bytes: record.bytes };
}

export function createAttachmentStore(options: { db: Database; home: string; now?: () => Date; newId?: () => string }) {
  const { db } = options;
  const home = resolve(options.home);
  const root = join(home, 'attachments');
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? randomUUID;

  const notFound = (id: string, why = `No attachment with id ${id}.`) =>
    new FermixError({ code: 'attachment_not_found', message: why, hint: 'List what this conversation holds with attachments.list, or attach the file again.', data: { id } });

  function find(id: string): AttachmentRecord | undefined {
    return db.get<AttachmentRecord>('SELECT * FROM attachments WHERE id = ?', [id]);
  }

  function get(id: string): AttachmentRecord {
    const record = find(id);
    if (!record) throw notFound(id);
    return record;
  }

  /** The absolute file of a record, or undefined when its recorded path leaves attachments/ (a tampered row). */
  function fileOf(record: AttachmentRecord): string | undefined {
    const full = resolve(home, record.path);
    return full.startsWith(root + sep) ? full : undefined;
  }

  function ensureDir(dir: string): void {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode applies only to folders it creates; an older home may hold a wider one.
    chmodSync(root, 0o700);
    chmodSync(dir, 0o700);
  }

  function removeFile(record: AttachmentRecord): void {
    const file = fileOf(record);
    if (file) rmSync(file, { force: true });
  }

  return {
    root,
    /** Writes the bytes, then the row; a failed insert takes the file away again. */
    save(input: SaveInput): AttachmentRecord {
      const id = newId();
      const filename = displayName(input.filename);
      const dir = join(root, conversationDir(input.conversationId));
      const file = join(dir, `${id}-${diskName(filename)}`);
      ensureDir(dir);
      writeFileSync(file, input.bytes, { mode: 0o600, flag: 'wx' });
      const record: AttachmentRecord = {
        id,
        conversation_id: input.conversationId,
        direction: input.direction,
        filename,
        mime_type: input.mimeType,
        bytes: input.bytes.length,
        path: relative(home, file).split(sep).join('/'),
        turn_id: input.turnId ?? null,
        created_at: now().toISOString(),
      };
      try {
        db.run('INSERT INTO attachments (id, conversation_id, direction, filename, mime_type, bytes, path, turn_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
          record.id, record.conversation_id, record.direction, record.filename, record.mime_type, record.bytes, record.path, record.turn_id, record.created_at,
        ]);
      } catch (error) {
        rmSync(file, { force: true });
        throw error;
      }
      return record;
    },
    find,
    get,
    /** The record and its bytes; attachment_not_found when the id is unknown or its file is gone. */
    read(id: string): { record: AttachmentRecord; bytes: Uint8Array } {
      const record = get(id);
      const file = fileOf(record);
      if (!file || !existsSync(file)) throw notFound(id, `The file of attachment "${record.filename}" (${id}) is no longer in the Fermix home.`);
      return { record, bytes: new Uint8Array(readFileSync(file)) };
    },
    /** For the model history: null when the file is gone (the message then says so instead of failing). */
    readBytes(id: string): Uint8Array | null {
      const record = find(id);
      const file = record && fileOf(record);
      if (!file || !existsSync(file)) return null;
      return new Uint8Array(readFileSync(file));
    },
    list(conversationId: string): AttachmentRecord[] {
      return db.all<AttachmentRecord>('SELECT * FROM attachments WHERE conversation_id = ? ORDER BY created_at, rowid', [conversationId]);
    },
    /**
     * The uploads a chat.send names, checked before anything is written: each must exist, be the
     * person's, belong to this conversation and not have gone with an earlier message. Order kept,
     * repeats dropped.
     */
    claimable(ids: readonly string[], conversationId: string | undefined): AttachmentRecord[] {
      const records: AttachmentRecord[] = [];
      for (const id of new Set(ids)) {
        const record = find(id);
        if (!record) throw notFound(id, `No attachment with id ${id}; it was never uploaded, or it was discarded.`);
        const name = `"${record.filename}" (${id})`;
        if (record.direction !== 'in') {
          throw new FermixError({ code: 'attachment_invalid', message: `Attachment ${name} was sent by the agent; only files you upload can go with a message.`, hint: SEND_AGAIN, data: { id } });
        }
        if (record.conversation_id !== conversationId) {
          throw new FermixError({ code: 'attachment_invalid', message: `Attachment ${name} was uploaded to conversation ${record.conversation_id}, not to ${conversationId ?? 'a new one'}.`, hint: SEND_AGAIN, data: { id, conversation_id: record.conversation_id } });
        }
        if (record.turn_id !== null) {
          throw new FermixError({ code: 'attachment_invalid', message: `Attachment ${name} already went with an earlier message.`, hint: SEND_AGAIN, data: { id, turn_id: record.turn_id } });
        }
        records.push(record);
      }
      return records;
    },
    /** Ties staged uploads to the turn whose message carries them (after claimable() accepted them). */
    claim(ids: readonly string[], turnId: string): void {
      db.transaction(() => {
        for (const id of ids) db.run('UPDATE attachments SET turn_id = ? WHERE id = ? AND turn_id IS NULL', [turnId, id]);
      });
    },
    /** Deletes a staged upload; a sent one (or an unknown id) is left alone and answers false. */
    discard(id: string): boolean {
      const record = find(id);
      if (!record || record.direction !== 'in' || record.turn_id !== null) return false;
      db.run('DELETE FROM attachments WHERE id = ?', [id]);
      removeFile(record);
      return true;
    },
    /** Removes uploads that no message claimed within the TTL; returns how many. */
    sweepStaged(ttlMs = STAGED_TTL_MS): number {
      const before = new Date(now().getTime() - ttlMs).toISOString();
      const stale = db.all<AttachmentRecord>("SELECT * FROM attachments WHERE direction = 'in' AND turn_id IS NULL AND created_at < ?", [before]);
      for (const record of stale) {
        db.run('DELETE FROM attachments WHERE id = ?', [record.id]);
        removeFile(record);
      }
      return stale.length;
    },
  };
}

export type AttachmentStore = ReturnType<typeof createAttachmentStore>;
