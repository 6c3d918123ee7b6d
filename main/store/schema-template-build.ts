/**
 * Writes this build's schema template (schema-template.ts): a database with every migration applied and
 * nothing else. Run by the build (scripts/build-schema-template.mjs); tests call it on temp folders.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from './database.js';
import { schemaTemplateName } from './schema-template.js';

/** Creates `<dir>/schema-<digest>.db` unless it is there already, removes older templates, returns its path. */
export function buildSchemaTemplate(dir: string): string {
  const name = schemaTemplateName();
  const target = join(dir, name);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(target)) {
    const staging = join(dir, `${name}.${process.pid}.tmp`);
    for (const suffix of ['', '-wal', '-journal']) rmSync(`${staging}${suffix}`, { force: true });
    // openDatabase runs the migrations on the new file; closing checkpoints the WAL into it and removes the WAL.
    openDatabase(staging, { ownsDaemonLock: true }).close();
    renameSync(staging, target);
  }
  for (const entry of readdirSync(dir)) {
    if (/^schema-[0-9a-f]{16}\.db$/.test(entry) && entry !== name) rmSync(join(dir, entry), { force: true });
  }
  return target;
}
