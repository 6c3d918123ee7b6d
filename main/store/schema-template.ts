/**
 * A fresh home's database starts as a copy of a template instead of running the migrations. On a fresh
 * home the migrations were the largest part of start-up after SQLite itself: ~14 ms of the daemon's
 * ~165 ms, most of it SQLite compiling (lazily, on the main thread) the code for CREATE TABLE, CREATE
 * INDEX, triggers and FTS5 that no later start needs (docs/decisions/0027, fourth pass).
 *
 * The build (scripts/build-schema-template.mjs) runs the migrations once into out/node/<name>, where the
 * name carries a digest of every migration's statements: a template is only ever used by the build whose
 * migrations made it, so a changed migration can never be skipped. Only the daemon passes a template
 * (compose.ts); tests and doctor open databases without one, so the migrations themselves stay tested.
 */
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { MIGRATIONS, type Migration } from './migrations.js';

/** `schema-<16 hex>.db`: the digest covers each migration's version, name and statements. */
export function schemaTemplateName(migrations: readonly Migration[] = MIGRATIONS): string {
  const digest = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 16);
  return `schema-${digest}.db`;
}

/**
 * Copies `template` to `file` when there is no database at `file` yet (missing or empty); `template` may be
 * a function that names it, called only then. Returns true when it did; false leaves everything to the
 * migrations, as before (no template, or a database already there).
 * Never seeds beside a WAL or rollback journal: those belong to another database, and SQLite would replay
 * them into the copy. The copy is staged and renamed, so a crash never leaves half a database.
 */
export function seedFromTemplate(file: string, template: string | (() => string)): boolean {
  const staged = `${file}.${process.pid}.seed`;
  try {
    if (existsSync(file) && statSync(file).size > 0) return false;
    if (existsSync(`${file}-wal`) || existsSync(`${file}-journal`)) return false;
    // Named only now: an initialised home (the usual start) never needs the name's digest.
    const source = typeof template === 'function' ? template() : template;
    if (!existsSync(source)) return false;
    copyFileSync(source, staged);
    // As private as the rest of the home (config/home.ts): the database holds every conversation.
    chmodSync(staged, 0o600);
    renameSync(staged, file);
    return true;
  } catch {
    rmSync(staged, { force: true });
    return false;
  }
}
