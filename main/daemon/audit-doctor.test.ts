import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHome, homePaths } from '../config/home.js';
import { openDatabase } from '../store/database.js';
import { createAuditStore } from '../store/audit-store.js';
import type { AuditRecord } from '../core/capabilities/audit-record.js';
import { baseDoctorChecks } from './doctor-checks.js';

const record: AuditRecord = {
  time: new Date().toISOString(), conversation_id: null, trust: 'operator', origin: 'chat', capability: 'file_read', kind: 'builtin',
  policy_class: 'read_only', decision: 'allow', rule: 'default', approval: null, args_mode: 'full', args: { path: 'a'.repeat(2000) },
  duration_ms: 1, result_bytes: 2, truncated: false, error_code: null, notes: null,
};

async function auditRow(paths: ReturnType<typeof homePaths>, options: Parameters<typeof baseDoctorChecks>[1]) {
  const check = baseDoctorChecks(paths, options).find((row) => row.id === 'audit_store')!;
  return check.run();
}

describe('doctor: audit store row', () => {
  it('shows the record count, the estimated size and the configured bounds', async () => {
    const paths = homePaths(mkdtempSync(join(tmpdir(), 'fermix-doctor-audit-')));
    ensureHome(paths);
    writeFileSync(paths.config, '[audit]\nmax_size_mb = 5\nretention_days = 30\n');
    const db = openDatabase(paths.database, { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 30, maxSizeMb: 5 });
    for (let index = 0; index < 3; index += 1) store.sink.write(record);
    const inside = await auditRow(paths, { insideDaemon: true, db });
    expect(inside).toMatchObject({ status: 'OK', detail: expect.stringMatching(/^3 records, about 6(\.\d)? KB \(cap 5 MB, 30 days/) });
    db.close();
    // From the CLI with no daemon running, it opens the file itself.
    const outside = await auditRow(paths, { insideDaemon: false });
    expect(outside).toMatchObject({ status: 'OK', detail: expect.stringContaining('3 records') });
  });
});
