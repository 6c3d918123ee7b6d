import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, type Database } from './database.js';
import { MIGRATIONS } from './migrations.js';
import { schemaTemplateName, seedFromTemplate } from './schema-template.js';
import { buildSchemaTemplate } from './schema-template-build.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const tempDir = () => mkdtempSync(join(tmpdir(), 'fermix-schema-'));

/** Everything the migrations create, as SQLite records it (tables, indexes, triggers, FTS shadow tables). */
function schemaOf(db: Database): unknown[] {
  return db.all("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name");
}

function migratedSchema(): unknown[] {
  const db = openDatabase(join(tempDir(), 'fermix.db'), { ownsDaemonLock: true });
  try {
    return schemaOf(db);
  } finally {
    db.close();
  }
}

describe('schema template', () => {
  it('holds exactly the schema the migrations make, and a database seeded from it works like one', () => {
    const dir = tempDir();
    const template = buildSchemaTemplate(dir);
    expect(template).toBe(join(dir, schemaTemplateName()));
    expect(readdirSync(dir)).toEqual([schemaTemplateName()]);

    const file = join(tempDir(), 'fermix.db');
    const db = openDatabase(file, { ownsDaemonLock: true, schemaTemplate: template });
    try {
      expect(schemaOf(db)).toEqual(migratedSchema());
      expect(db.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
      expect(db.journalMode).toBe('wal');
      // Seeded, not migrated: the migration rows are the template's, written when the build made it.
      const template_ = openDatabase(template, { ownsDaemonLock: true });
      const stampOf = (d: Database) => d.all('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
      expect(stampOf(db)).toEqual(stampOf(template_));
      template_.close();
      db.run("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c1', 'hello', '2026-12-01', '2026-12-01')");
      expect(db.get<{ title: string }>("SELECT title FROM conversations WHERE id = 'c1'")?.title).toBe('hello');
    } finally {
      db.close();
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('is named after every migration, so a changed or added migration never uses an old template', () => {
    const name = schemaTemplateName();
    expect(name).toMatch(/^schema-[0-9a-f]{16}\.db$/);
    expect(schemaTemplateName(MIGRATIONS)).toBe(name);
    const edited = MIGRATIONS.map((migration, index) => (index === 0 ? { ...migration, statements: [...migration.statements, 'CREATE TABLE extra (id INTEGER)'] } : migration));
    expect(schemaTemplateName(edited)).not.toBe(name);
    expect(schemaTemplateName([...MIGRATIONS, { version: 999, name: 'next', statements: ['SELECT 1'] }])).not.toBe(name);
  });

  it('leaves an existing database alone, and runs the migrations when the template is missing', () => {
    const template = buildSchemaTemplate(tempDir());
    const file = join(tempDir(), 'fermix.db');
    const first = openDatabase(file, { ownsDaemonLock: true });
    first.run("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('kept', 'mine', '2026-12-01', '2026-12-01')");
    first.close();
    expect(seedFromTemplate(file, template)).toBe(false);
    // Named lazily: the usual start (a database already there) never computes the template's name.
    let named = 0;
    const naming = () => {
      named += 1;
      return template;
    };
    expect(seedFromTemplate(file, naming)).toBe(false);
    expect(named).toBe(0);
    expect(seedFromTemplate(join(tempDir(), 'fermix.db'), naming)).toBe(true);
    expect(named).toBe(1);
    const again = openDatabase(file, { ownsDaemonLock: true, schemaTemplate: template });
    expect(again.get<{ title: string }>("SELECT title FROM conversations WHERE id = 'kept'")?.title).toBe('mine');
    again.close();

    const without = join(tempDir(), 'fermix.db');
    const migrated = openDatabase(without, { ownsDaemonLock: true, schemaTemplate: join(tempDir(), schemaTemplateName()) });
    try {
      expect(schemaOf(migrated)).toEqual(migratedSchema());
    } finally {
      migrated.close();
    }
  });

  it('never seeds beside a WAL or journal (another database\'s), and fills an empty file', () => {
    const template = buildSchemaTemplate(tempDir());
    for (const leftover of ['-wal', '-journal']) {
      const file = join(tempDir(), 'fermix.db');
      writeFileSync(`${file}${leftover}`, 'not ours');
      expect(seedFromTemplate(file, template)).toBe(false);
      expect(existsSync(file)).toBe(false);
    }
    const empty = join(tempDir(), 'fermix.db');
    writeFileSync(empty, '');
    expect(seedFromTemplate(empty, template)).toBe(true);
    expect(statSync(empty).size).toBe(statSync(template).size);
    expect(readdirSync(join(empty, '..'))).toEqual(['fermix.db']);
  });

  it('is built by the build for this build\'s migrations, and replaces older templates', () => {
    // `npm test` builds first (scripts/test.mjs); the daemon looks for exactly this file (compose.ts).
    expect(existsSync(join(ROOT, 'out', 'node', schemaTemplateName()))).toBe(true);
    const dir = tempDir();
    writeFileSync(join(dir, 'schema-0000000000000000.db'), 'old');
    writeFileSync(join(dir, 'keep.txt'), 'not a template');
    buildSchemaTemplate(dir);
    expect(readdirSync(dir).sort()).toEqual(['keep.txt', schemaTemplateName()]);
  });
});
