import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runFermix, startDaemonProcess, tempHome, waitFor } from './support/daemon-process.js';

describe('fermix logs', () => {
  it('shows the last N JSON lines, follows new ones, and never shows a secret', async () => {
    const home = tempHome();
    const daemon = await startDaemonProcess(home);
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    const last = runFermix(home, ['logs', '-n', '2', '--json']);
    expect(last.code).toBe(0);
    const lines = last.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1])).toMatchObject({ level: 'info', msg: 'daemon stopped' });
    // Without --json the same lines are for people: time, level, message, fields.
    const readable = runFermix(home, ['logs', '-n', '2']).stdout.trim().split('\n');
    expect(readable[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO  daemon stopped  reason="received SIGTERM"$/);
    expect(readFileSync(join(home, 'logs', 'fermix.log'), 'utf8')).toContain('"startup_ms"');

    const follower = spawn(process.execPath, [BIN, 'logs', '-f', '-n', '0'], { env: { ...process.env, FERMIX_HOME: home } });
    let seen = '';
    follower.stdout.on('data', (chunk) => (seen += chunk));
    // `-n 0` starts at the end of the file as the follower opens it: wait until it has (its open file
    // descriptors show the log), or a fast second daemon run could be over before the follower looks.
    const logFile = join(home, 'logs', 'fermix.log');
    const following = () => {
      try {
        return readdirSync(`/proc/${follower.pid}/fd`).some((fd) => {
          try {
            return readlinkSync(`/proc/${follower.pid}/fd/${fd}`) === logFile;
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    };
    try {
      await waitFor(following, 30_000, 'the follower to open the log');
      // A second daemon run appends lines; the follower must print them as they come.
      const again = await startDaemonProcess(home);
      again.child.kill('SIGTERM');
      await again.exited;
      // A generous bound: on a loaded 2-core machine a daemon start and stop alone can take several seconds.
      await waitFor(() => seen.includes('daemon stopped'), 30_000, 'followed lines');
      expect(seen).toContain('daemon started');
    } finally {
      follower.kill('SIGTERM');
    }
    // The per-run token is a credential: it is printed to the person, never written to the log.
    expect(readFileSync(join(home, 'logs', 'fermix.log'), 'utf8')).not.toMatch(/#token=/);
  }, 90_000);

  it('refuses a bad -n with a usage error', () => {
    const result = runFermix(tempHome(), ['logs', '-n', 'lots']);
    expect(result.code).toBe(2);
  });
});
