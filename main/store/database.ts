import { existsSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { DatabaseSyncInstance, StatementSyncInstance } from '@photostructure/sqlite';
import type SqliteModule from '@photostructure/sqlite';
import { FermixError } from '../core/errors.js';
import { MIGRATIONS } from './migrations.js';
import { seedFromTemplate } from './schema-template.js';

/**
 * SQLite is native: @photostructure/sqlite, node:sqlite's DatabaseSync as an N-API addon (Node 20 has no
 * node:sqlite), with prebuilt binaries inside the npm package, so nothing is compiled or downloaded at
 * install and Electron loads the same file (N-API is ABI-stable). It replaced node-sqlite3-wasm, whose
 * WebAssembly cost ~30 ms of every daemon start to compile (decision 0032). Loaded at the first open.
 */
let sqliteModule: typeof SqliteModule | undefined;
function sqlite(): typeof SqliteModule {
  try {
    sqliteModule ??= createRequire(import.meta.url)('@photostructure/sqlite') as typeof SqliteModule;
  } catch (error) {
    throw sqliteLoadError(error);
  }
  return sqliteModule;
}

/** The addon did not load: no prebuild for this platform (and no build from source), or a damaged install. */
export function sqliteLoadError(cause: unknown): FermixError {
  return new FermixError({
    code: 'database_unavailable',
    message: `SQLite (the @photostructure/sqlite addon) could not be loaded on ${process.platform}-${process.arch}: ${(cause as Error)?.message ?? String(cause)}.`,
    hint: 'Run `npm ci` in the Fermix folder. The addon ships prebuilt for Linux, macOS and Windows on x64 and arm64; anywhere else npm builds it from source, which needs python3, make and a C++ compiler.',
    cause,
  });
}

export type SqlValue = number | bigint | string | Uint8Array | null | boolean;
export type Row = Record<string, number | bigint | string | Uint8Array | null>;

/** The small repository interface every store module uses; nothing else touches SQLite. */
export interface Database {
  run(sql: string, params?: SqlValue[] | Record<string, SqlValue>): { changes: number; lastInsertRowid: number };
  all<T = Row>(sql: string, params?: SqlValue[] | Record<string, SqlValue>): T[];
  get<T = Row>(sql: string, params?: SqlValue[] | Record<string, SqlValue>): T | undefined;
  transaction<T>(work: () => T): T;
  schemaVersion(): number;
  /** Copies the WAL back into the database file (the only step that fsyncs); normally runs when idle. */
  checkpoint(): void;
  /** `wal` when write-ahead logging is on (the normal case), else SQLite's journal mode. */
  readonly journalMode: string;
  /** Runs `work` at close, before the connection goes (a writer's queue must reach the file first). */
  beforeClose(work: () => void): void;
  close(): void;
  readonly file: string;
}

export interface OpenOptions {
  /**
   * True only when the caller holds the daemon's pid lock. Builds before decision 0032 (node-sqlite3-wasm)
   * locked with a `<db>.lock` directory that a SIGKILL left behind; the lock holder removes such a leftover.
   */
  ownsDaemonLock: boolean;
  /** Checkpoint once no write has happened for this long (default 2 s), or sooner when the WAL is big. */
  idleCheckpointMs?: number;
  /**
   * This build's schema template (schema-template.ts): when `file` has no database yet, it starts as a copy
   * of the template instead of running the migrations. Only the daemon passes one.
   */
  schemaTemplate?: string | (() => string);
}

/** A WAL this big is written back even while writes keep coming, so it (and recovery) stays small. */
const WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024;

export function openDatabase(file: string, options: OpenOptions): Database {
  const lockDir = `${file}.lock`;
  if (options.ownsDaemonLock && existsSync(lockDir) && statSync(lockDir).isDirectory()) {
    rmSync(lockDir, { recursive: true, force: true });
  }
  if (options.schemaTemplate !== undefined) seedFromTemplate(file, options.schemaTemplate);
  let db: DatabaseSyncInstance;
  let journalMode: string;
  // A brand-new file has nothing to lose: its switch to WAL (a rollback-journal write of page 1) and its
  // migrations run unsynced, so a fresh home's migrations cost no fsync (a crash of the process loses
  // nothing either way: the OS has the writes; only a power cut before the first checkpoint could).
  const fresh = !existsSync(file) || statSync(file).size === 0;
  try {
    db = new (sqlite().DatabaseSync)(file);
    // The daemon is the only process that opens the database, and holds it with an exclusive lock: WAL then
    // needs no shared-memory file, and a second process is refused. WAL + synchronous NORMAL makes a commit cost no
    // fsync (only checkpoints sync), and a process kill loses nothing committed: the WAL is replayed.
    // synchronous before journal_mode: on a fresh file the switch to WAL is itself a write.
    db.exec(`PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = ${fresh ? 'OFF' : 'NORMAL'}`);
    journalMode = String((db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode?: string } | undefined)?.journal_mode ?? 'unknown');
    // A fresh file stays unsynced through its migrations too (below): SQLite would otherwise fsync the new
    // WAL's header and, natively, the folder the WAL was created in — for a schema with nothing to lose.
    if (!fresh) db.exec('PRAGMA synchronous = NORMAL');
    // Checkpoints are ours (scheduleCheckpoints): SQLite's automatic one would fsync inside whatever
    // commit crossed the threshold, i.e. on the hot path of a tool call or a turn step.
    db.exec('PRAGMA wal_autocheckpoint = 0; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;');
    // Overwritten and deleted content is zeroed, not left in free pages: a secret redacted at rest
    // (turns.ts) must not survive in the file's slack space.
    db.exec('PRAGMA secure_delete = ON');
  } catch (error) {
    if (error instanceof FermixError) throw error;
    throw new FermixError({
      code: 'database_unavailable',
      message: `Could not open the database ${file}: ${(error as Error).message}.`,
      hint: 'Run `fermix doctor`; if another Fermix daemon is running, stop it with `fermix stop`.',
      cause: error,
    });
  }
  const wrapper = wrap(db, file, journalMode, options.idleCheckpointMs ?? 2_000);
  migrate(wrapper);
  // From here on every commit is durable as WAL + NORMAL makes it; the first checkpoint syncs the WAL the
  // migrations wrote (its header and its folder entry with it) and the database file.
  if (fresh) db.exec('PRAGMA synchronous = NORMAL');
  return wrapper;
}

/** Prepared statements kept per connection: preparing costs more than running a small statement. */
const STATEMENT_CACHE_SIZE = 256;

type Params = SqlValue[] | Record<string, SqlValue> | undefined;
type Bindable = number | bigint | string | Uint8Array | null;

/** SQLite has no boolean: true and false are stored as 1 and 0, as the old driver did. */
function bindable(value: SqlValue): Bindable {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

function bind(params: Params): unknown[] {
  if (params === undefined) return [];
  if (Array.isArray(params)) return params.some((value) => typeof value === 'boolean') ? params.map(bindable) : params;
  return [Object.fromEntries(Object.entries(params).map(([name, value]) => [name, bindable(value)]))];
}

function wrap(db: DatabaseSyncInstance, file: string, journalMode: string, idleCheckpointMs: number): Database {
  const statements = new Map<string, StatementSyncInstance>();
  const statement = (sql: string): StatementSyncInstance => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      prepared = db.prepare(sql);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      statements.set(sql, prepared);
    }
    return prepared;
  };
  let depth = 0;
  let dirty = false;
  let lastWrite = 0;
  let writesSinceSizeCheck = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const checkpoint = () => {
    if (!db.isOpen || db.isTransaction) return;
    dirty = false;
    if (journalMode === 'wal') db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  };
  const walBytes = () => {
    try {
      return statSync(`${file}-wal`).size;
    } catch {
      return 0;
    }
  };
  // Called after every commit (autocommit statement or transaction). Cheap: a clock read, and a stat
  // of the WAL every 64 writes. The timer is unref'd so it never keeps a process alive.
  const wrote = () => {
    dirty = true;
    lastWrite = Date.now();
    writesSinceSizeCheck += 1;
    if (writesSinceSizeCheck >= 64) {
      writesSinceSizeCheck = 0;
      if (walBytes() > WAL_CHECKPOINT_BYTES) setImmediate(checkpoint);
    }
    if (timer === undefined && journalMode === 'wal') {
      timer = setInterval(() => {
        if (dirty && Date.now() - lastWrite >= idleCheckpointMs) checkpoint();
      }, Math.max(50, Math.floor(idleCheckpointMs / 2)));
      timer.unref();
    }
  };
  const isWrite = (sql: string) => !/^\s*(SELECT|WITH\s[\s\S]*?\bSELECT)\b/i.test(sql);

  const closing: (() => void)[] = [];
  return {
    file,
    journalMode,
    run(sql, params) {
      const result = statement(sql).run(...(bind(params) as never[]));
      if (depth === 0 && isWrite(sql)) wrote();
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    },
    all(sql, params) {
      return statement(sql).all(...(bind(params) as never[])) as never;
    },
    get(sql, params) {
      return statement(sql).get(...(bind(params) as never[])) as never;
    },
    transaction(work) {
      // Nested calls join the outer transaction: SQLite has no nested BEGIN.
      if (depth > 0) return work();
      db.exec('BEGIN IMMEDIATE');
      depth += 1;
      try {
        const result = work();
        db.exec('COMMIT');
        wrote();
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        depth -= 1;
      }
    },
    schemaVersion() {
      const row = statement('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null } | undefined;
      return row?.version ?? 0;
    },
    checkpoint,
    beforeClose(work) {
      closing.push(work);
    },
    close() {
      for (const work of closing.splice(0)) {
        try {
          work();
        } catch {
          // One writer's failure must not keep the database open; the close goes on.
        }
      }
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      statements.clear();
      // Closing the last connection checkpoints the WAL and removes it.
      if (db.isOpen) db.close();
    },
  };
}

/**
 * Applies pending migrations in order, all in ONE transaction: on a fresh home that is one commit
 * instead of one per migration, and a failure leaves the schema exactly as it was.
 */
function migrate(db: Database): void {
  db.transaction(() => {
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
    const appliedAt = new Date().toISOString();
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) db.run(statement);
      db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [migration.version, migration.name, appliedAt]);
    }
  });
}
