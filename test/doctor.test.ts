import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFermix, tempHome } from './support/daemon-process.js';

describe('fermix doctor', () => {
  it('reports one row per check with the fix, as JSON, and exits 0 when nothing fails', () => {
    const home = tempHome();
    for (const dir of ['workspace', 'skills', 'plugins', 'browser/profiles', 'logs', 'run']) mkdirSync(join(home, dir), { recursive: true, mode: 0o700 });
    chmodSync(home, 0o700);
    const result = runFermix(home, ['doctor', '--json']);
    expect(result.code, result.stdout).toBe(0);
    const rows = JSON.parse(result.stdout).result.checks as { id: string; status: string; fix: string }[];
    expect(rows.map((row) => row.id)).toEqual(['home_permissions', 'config', 'daemon_socket', 'database', 'audit_store', 'sandbox_config', 'secret_store', 'providers', 'browser', 'recent_log_activity', 'computer_use_permissions', 'mcp_servers', 'plugins']);
    // No database yet: the audit row still shows its bounds.
    expect(rows.find((row) => row.id === 'audit_store')).toMatchObject({ status: 'N/A', detail: expect.stringContaining('cap 200 MB, 90 days') });
    const socket = rows.find((row) => row.id === 'daemon_socket')!;
    expect(socket).toMatchObject({ status: 'WARN', fix: expect.stringContaining('fermix daemon') });
  });

  it('exits 1 on a FAIL row: a home readable by others, and an invalid config', () => {
    const home = tempHome();
    mkdirSync(join(home, 'logs'), { recursive: true });
    chmodSync(join(home, 'logs'), 0o755);
    writeFileSync(join(home, 'config.toml'), '[fermix_web]\nprot = 1\n');
    const result = runFermix(home, ['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL\s+home permissions.*logs.*→ chmod 700/m);
    expect(result.stdout).toMatch(/^FAIL\s+config.*config\.toml:2.*fermix_web\.prot/m);
  });

  // The keychain row writes, reads back and deletes a test item: a keychain that answers reads but
  // refuses writes (AccessDenied) must not be reported OK. Runs under ci/with-desktop.sh (gnome-keyring).
  it('reports the keychain OK only when it stores and returns an item, and WARN with both fixes when it cannot', () => {
    const home = tempHome();
    const rowOf = (env?: Record<string, string>) => {
      const result = runFermix(home, ['doctor', '--json'], { env });
      return (JSON.parse(result.stdout).result.checks as { id: string; status: string; detail: string; fix: string }[]).find((row) => row.id === 'secret_store')!;
    };
    if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('No D-Bus session: run the suite with `npm test` (it starts gnome-keyring under dbus-run-session).');
    expect(rowOf()).toMatchObject({ status: 'OK', detail: expect.stringContaining('stores and returns') });
    const refused = rowOf({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/fermix-no-bus' });
    expect(refused.status).toBe('WARN');
    expect(refused.fix).toMatch(/fermix secrets migrate --to file|secret_store = "file"/);
  });
});
