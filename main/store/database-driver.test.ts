/**
 * What the store's wrapper promises on top of the native driver (@photostructure/sqlite, decision 0032):
 * the old driver's value handling, prepared statements that survive the cache's eviction, a close that
 * really closes (lock and WAL released, so the same process can open the file again), and a load failure
 * that names the fix.
 */
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { openDatabase, sqliteLoadError } from './database.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'fermix-driver-')), 'fermix.db');

describe('database driver', () => {
  it('binds booleans as 1 and 0, returns undefined for no row, and keeps blobs as bytes', () => {
    const db = openDatabase(tempFile(), { ownsDaemonLock: true });
    try {
      db.run('CREATE TABLE t (flag INTEGER, data BLOB)');
      db.run('INSERT INTO t (flag, data) VALUES (?, ?)', [true, new Uint8Array([1, 2, 3])]);
      db.run('INSERT INTO t (flag, data) VALUES (?, ?)', [false, null]);
      expect(db.all<{ flag: number }>('SELECT flag FROM t ORDER BY rowid').map((row) => row.flag)).toEqual([1, 0]);
      expect(db.get('SELECT * FROM t WHERE flag = ?', [true])).toMatchObject({ flag: 1 });
      expect(Array.from(db.get<{ data: Uint8Array }>('SELECT data FROM t WHERE flag = 1')!.data)).toEqual([1, 2, 3]);
      expect(db.get('SELECT * FROM t WHERE flag = ?', [7])).toBeUndefined();
      expect(db.run('DELETE FROM t WHERE flag = ?', [false])).toMatchObject({ changes: 1 });
    } finally {
      db.close();
    }
  });

  it('keeps working past the prepared-statement cache, and a statement evicted from it is prepared again', () => {
    const db = openDatabase(tempFile(), { ownsDaemonLock: true });
    try {
      db.run('CREATE TABLE n (v INTEGER)');
      for (let index = 0; index < 300; index += 1) db.run(`INSERT INTO n (v) VALUES (${index})`);
      expect(db.get<{ c: number }>('SELECT COUNT(*) AS c FROM n')!.c).toBe(300);
      // The first statements were evicted long ago; running one again works and does not duplicate work.
      db.run('INSERT INTO n (v) VALUES (0)');
      expect(db.get<{ c: number }>('SELECT COUNT(*) AS c FROM n WHERE v = 0')!.c).toBe(2);
    } finally {
      db.close();
    }
  });

  it('releases the file on close even with cached statements: the same process opens it again, and the WAL is gone', () => {
    const file = tempFile();
    const first = openDatabase(file, { ownsDaemonLock: true });
    first.run('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', ['a', 't', 'now', 'now']);
    expect(first.get<{ title: string }>('SELECT title FROM conversations WHERE id = ?', ['a'])!.title).toBe('t');
    first.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const second = openDatabase(file, { ownsDaemonLock: true });
    try {
      expect(second.get<{ title: string }>('SELECT title FROM conversations WHERE id = ?', ['a'])!.title).toBe('t');
    } finally {
      second.close();
      rmSync(join(file, '..'), { recursive: true, force: true });
    }
  });

  it('says how to fix an addon that does not load', () => {
    const error = sqliteLoadError(new Error('No native build was found for platform=plan9'));
    expect(error).toBeInstanceOf(FermixError);
    expect(error.code).toBe('database_unavailable');
    expect(error.message).toMatch(/@photostructure\/sqlite.*could not be loaded.*No native build/);
    expect(error.hint).toMatch(/npm ci/);
  });
});
