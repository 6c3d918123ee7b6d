import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFermixAsync, startDaemonProcess, tempHome, type DaemonProcess } from './support/daemon-process.js';

describe('fermix sandbox explain --command against a running daemon', () => {
  const home = tempHome('fermix-explain-daemon-');
  let daemon: DaemonProcess;
  beforeAll(async () => {
    mkdirSync(join(home, 'workspace'), { recursive: true });
    writeFileSync(join(home, 'config.toml'), '[sandbox]\nmode = "standard"\n[sandbox.env]\nallow = ["EXPLAIN_DAEMON_ONLY"]\n');
    // Only the daemon has this variable: an answer that lists it as coming from the daemon came from the daemon.
    process.env.EXPLAIN_DAEMON_ONLY = 'daemon-side-value';
    try {
      daemon = await startDaemonProcess(home);
    } finally {
      delete process.env.EXPLAIN_DAEMON_ONLY;
    }
  });
  afterAll(async () => {
    daemon?.child.kill('SIGTERM');
    await daemon?.exited;
  });

  it("answers with the daemon's own environment, jail and rule, and runs nothing", async () => {
    const result = await runFermixAsync(home, ['sandbox', 'explain', '--command', 'echo / | xargs rm -rf', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ schema_version: 1, ok: true, result: { source: 'daemon', hardline: 'recursive_delete', would_run: false, refused_by: 'hardline' } });
    expect(answer.result.env.allowed).toEqual([{ name: 'EXPLAIN_DAEMON_ONLY', source: 'daemon' }]);
    expect(answer.result.env.names).toContain('EXPLAIN_DAEMON_ONLY');
    expect(result.stdout).not.toContain('daemon-side-value');

    const plain = await runFermixAsync(home, ['sandbox', 'explain', '--command', 'npm test']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Verdict:      would run');
    expect(plain.stdout).toContain('Answered by:  the running daemon');
  });
});
