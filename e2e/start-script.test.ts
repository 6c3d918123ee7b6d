// `npm start` on a machine where Electron cannot run: one line saying why, then the headless daemon in the
// foreground, printing the URL with its token; a stop of the start script stops the daemon.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, ROOT, tempHome, waitFor } from '../test/support/daemon-process.js';
import { requireRendererBuild } from './support/build-output.js';
import { findElectronBinary } from './support/electron-binary.js';

const electron = findElectronBinary();
if (electron.path) console.warn('The Electron binary is installed here, so `npm start` opens the app; the headless fallback test did not run');

describe('npm start', () => {
  it.skipIf(Boolean(electron.path))('falls back to the headless daemon with one line saying why Electron is unavailable', async () => {
    requireRendererBuild();
    const home = tempHome('fermix-start-');
    // FERMIX_SKIP_BUILD: other test files read out/ at the same time, so this one must not rebuild it.
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--port', '0'], {
      env: { ...process.env, FERMIX_HOME: home, FERMIX_SKIP_BUILD: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => /Open in a browser: http:\/\/127\.0\.0\.1:\d+\/#token=\S+/.test(stdout), 20_000, `the daemon URL (stdout: ${stdout}, stderr: ${stderr})`);
      const fallback = stdout.split('\n').filter((line) => line.includes('Electron is not available here'));
      expect(fallback).toHaveLength(1);
      expect(fallback[0]).toMatch(/^Electron is not available here \(.+\); starting the headless daemon instead\.$/);
      expect(fallback[0]).toContain(electron.reason);
      // Nothing reached for github.com (require('electron') would have printed this).
      expect(stdout + stderr).not.toContain('Downloading Electron binary');

      const base = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)![1];
      expect((await fetch(`${base}health/live`)).status).toBe(200);
      const pidFile = join(home, 'run', 'daemon.pid');
      const daemonPid = Number(readFileSync(pidFile, 'utf8').trim());
      expect(daemonPid).not.toBe(child.pid);

      process.kill(child.pid!, 'SIGTERM');
      expect(await exited).toBe(0);
      await waitFor(() => !isAlive(daemonPid), 10_000, 'the daemon to stop with the start script');
      expect(existsSync(pidFile)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 40_000);
});
