import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../main/store/database.js';
import { MIGRATIONS } from '../main/store/migrations.js';
import { schemaTemplateName } from '../main/store/schema-template.js';
import { ROOT, startDaemonProcess, stopDaemonProcess, tempHome } from './support/daemon-process.js';

/** The daemon on a fresh home copies the build's schema template (main/store/schema-template.ts). */
describe('a fresh home', () => {
  it('gets its database from the schema template the build made, at the newest schema version', async () => {
    const home = tempHome();
    const daemon = await startDaemonProcess(home);
    await stopDaemonProcess(daemon);
    const rows = (file: string) => {
      const db = openDatabase(file, { ownsDaemonLock: true });
      try {
        return db.all<{ version: number; applied_at: string }>('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
      } finally {
        db.close();
      }
    };
    const seeded = rows(join(home, 'fermix.db'));
    expect(seeded.at(-1)?.version).toBe(MIGRATIONS.at(-1)!.version);
    // The migration rows carry the template's timestamp: the home's copy was seeded, not migrated.
    // Read from a copy: other tests' daemons copy the template meanwhile, and opening it takes SQLite's lock.
    const copy = join(mkdtempSync(join(tmpdir(), 'fermix-template-')), 'template.db');
    copyFileSync(join(ROOT, 'out', 'node', schemaTemplateName()), copy);
    expect(seeded).toEqual(rows(copy));
  });
});
