import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database.js';
import { MIGRATIONS } from './migrations.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'fermix-db-')), 'fermix.db');
const walSize = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('database', () => {
  it('runs in WAL mode and applies every migration on a fresh file in one go', () => {
    const file = tempFile();
    const db = openDatabase(file, { ownsDaemonLock: true });
    expect(db.journalMode).toBe('wal');
    expect(db.get<{ synchronous: number }>('PRAGMA synchronous')!.synchronous).toBe(1); // NORMAL
    expect(db.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
    // One transaction: every migration row carries the same timestamp.
    const stamps = db.all<{ applied_at: string }>('SELECT DISTINCT applied_at FROM schema_migrations');
    expect(stamps).toHaveLength(1);
    db.close();
    // Closing checkpoints and removes the WAL; the file reopens at the same version.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const again = openDatabase(file, { ownsDaemonLock: true });
    expect(again.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
    again.close();
  });

  it('keeps committed rows that exist only in the WAL, as after a kill -9', () => {
    const file = tempFile();
    const db = openDatabase(file, { ownsDaemonLock: true, idleCheckpointMs: 60_000 });
    db.checkpoint();
    for (let index = 0; index < 50; index += 1) {
      db.run('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', [`c${index}`, 't', 'now', 'now']);
    }
    expect(walSize(file)).toBeGreaterThan(0);
    // The files as a SIGKILL would leave them: the database was never checkpointed, the WAL holds it all.
    const copy = tempFile();
    copyFileSync(file, copy);
    copyFileSync(`${file}-wal`, `${copy}-wal`);
    db.close();
    const recovered = openDatabase(copy, { ownsDaemonLock: true });
    expect(recovered.get<{ n: number }>('SELECT COUNT(*) AS n FROM conversations')!.n).toBe(50);
    expect(recovered.get<{ integrity_check: string }>('PRAGMA integrity_check')!.integrity_check).toBe('ok');
    recovered.close();
  });

  it('writes the WAL back once writes go quiet, and on demand', async () => {
    const file = tempFile();
    const db = openDatabase(file, { ownsDaemonLock: true, idleCheckpointMs: 50 });
    db.run('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', ['a', 't', 'now', 'now']);
    await until(() => walSize(file) === 0, 'the idle checkpoint to truncate the WAL');
    db.transaction(() => db.run("UPDATE conversations SET title = 'u' WHERE id = 'a'"));
    expect(walSize(file)).toBeGreaterThan(0);
    db.checkpoint();
    expect(walSize(file)).toBe(0);
    expect(db.get<{ title: string }>("SELECT title FROM conversations WHERE id = 'a'")!.title).toBe('u');
    db.close();
  });

  it('rolls a failed transaction back whole', () => {
    const db = openDatabase(tempFile(), { ownsDaemonLock: true });
    expect(() => db.transaction(() => {
      db.run('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', ['x', 't', 'now', 'now']);
      db.run('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', ['x', 't', 'now', 'now']);
    })).toThrow(/UNIQUE/);
    expect(db.get<{ n: number }>('SELECT COUNT(*) AS n FROM conversations')!.n).toBe(0);
    db.close();
  });
});
