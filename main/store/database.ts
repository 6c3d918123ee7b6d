import { existsSync, rmSync, statSync } from 'node:fs';
import sqlite from 'node-sqlite3-wasm';
import { FermixError } from '../core/errors.js';
import { MIGRATIONS } from './migrations.js';

type SqliteDatabase = InstanceType<typeof sqlite.Database>;
export type SqlValue = number | bigint | string | Uint8Array | null | boolean;
export type Row = Record<string, number | bigint | string | Uint8Array | null>;

/** The small repository interface every store module uses; nothing else touches SQLite. */
export interface Database {
  run(sql: string, params?: SqlValue[] | Record<string, SqlValue>): { changes: number; lastInsertRowid: number };
  all<T = Row>(sql: string, params?: SqlValue[] | Record<string, SqlValue>): T[];
  get<T = Row>(sql: string, params?: SqlValue[] | Record<string, SqlValue>): T | undefined;
  transaction<T>(work: () => T): T;
  schemaVersion(): number;
  close(): void;
  readonly file: string;
}

export interface OpenOptions {
  /**
   * True only when the caller holds the daemon's pid lock. node-sqlite3-wasm locks with a `<db>.lock`
   * directory that a SIGKILL leaves behind; only the lock holder may decide it is stale and remove it.
   */
  ownsDaemonLock: boolean;
}

export function openDatabase(file: string, options: OpenOptions): Database {
  const lockDir = `${file}.lock`;
  if (options.ownsDaemonLock && existsSync(lockDir) && statSync(lockDir).isDirectory()) {
    rmSync(lockDir, { recursive: true, force: true });
  }
  let db: SqliteDatabase;
  try {
    db = new sqlite.Database(file);
    db.exec('PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;');
  } catch (error) {
    throw new FermixError({
      code: 'database_unavailable',
      message: `Could not open the database ${file}: ${(error as Error).message}.`,
      hint: 'Run `fermix doctor`; if another Fermix daemon is running, stop it with `fermix stop`.',
      cause: error,
    });
  }
  const wrapper = wrap(db, file);
  migrate(wrapper);
  return wrapper;
}

function wrap(db: SqliteDatabase, file: string): Database {
  let depth = 0;
  return {
    file,
    run(sql, params) {
      const result = db.run(sql, params as never);
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    },
    all(sql, params) {
      return db.all(sql, params as never) as never;
    },
    get(sql, params) {
      return (db.get(sql, params as never) ?? undefined) as never;
    },
    transaction(work) {
      // Nested calls join the outer transaction: SQLite has no nested BEGIN.
      if (depth > 0) return work();
      db.exec('BEGIN IMMEDIATE');
      depth += 1;
      try {
        const result = work();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        depth -= 1;
      }
    },
    schemaVersion() {
      const row = db.get('SELECT MAX(version) AS version FROM schema_migrations') as { version: number | null } | null;
      return row?.version ?? 0;
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
}

/** Applies pending migrations in order, each in its own transaction, recording its version. */
function migrate(db: Database): void {
  db.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const current = db.schemaVersion();
  const newest = MIGRATIONS.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new FermixError({
      code: 'database_too_new',
      message: `The database ${db.file} has schema version ${current}, newer than this Fermix knows (${newest}).`,
      hint: 'Upgrade Fermix to the version that last used this home, or point FERMIX_HOME elsewhere.',
    });
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      for (const statement of migration.statements) db.run(statement);
      db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [migration.version, migration.name, new Date().toISOString()]);
    });
  }
}
