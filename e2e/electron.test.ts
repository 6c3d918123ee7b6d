// The packaged shape of the app: Electron main (daemon in-process) + sandboxed preload + the built window.
// It runs only where the Electron binary exists; elsewhere (our build machines cannot download it) the test
// is reported as SKIPPED, never as passed, and the reason is printed.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { _electron } from 'playwright-core';
import { ROOT, tempHome } from '../test/support/daemon-process.js';
import { requireRendererBuild } from './support/build-output.js';
import { saveScreenshot } from './support/chromium.js';
import { findElectronBinary } from './support/electron-binary.js';

const electron = findElectronBinary();
if (!electron.path) console.warn(`Electron binary not available: ${electron.reason}; the Electron e2e did not run`);

describe('the desktop app in Electron', () => {
  it.skipIf(!electron.path)('needs the Electron binary: opens the hardened window, talks to the in-process daemon over IPC', async () => {
    requireRendererBuild();
    for (const file of ['out/main/index.js', 'out/preload/index.cjs']) {
      if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run \`npx electron-vite build\`, then run this test again.`);
    }
    const home = tempHome('fermix-electron-');
    // Port 0: the in-process daemon must not collide with a daemon on the default port 4030.
    writeFileSync(join(home, 'config.toml'), '[fermix_web]\nport = 0\n');
    // Chromium refuses to run as root with its OS sandbox (CI runs as root); the page stays in Electron's
    // renderer sandbox (sandbox: true, no Node), which is what this test checks.
    const args = process.getuid?.() === 0 ? ['--no-sandbox', ROOT] : [ROOT];
    const app = await _electron.launch({ executablePath: electron.path, args, env: { ...process.env, FERMIX_HOME: home }, timeout: 30_000 });
    try {
      const window = await app.firstWindow();
      await window.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
      await window.getByText('in-app').waitFor();
      expect(window.url()).toBe('app://fermix/index.html');

      // Isolation: no Node in the page, and the bridge is exactly invoke + subscribe
      // (the webPreferences themselves are pinned by main/shell/window-options.test.ts).
      expect(await window.evaluate('typeof require')).toBe('undefined');
      expect(await window.evaluate('typeof process')).toBe('undefined');
      expect(await window.evaluate('Object.keys(window.fermix).sort().join()')).toBe('invoke,subscribe');

      // The IPC round trip: New conversation opens a draft (stored only with its first message).
      await window.getByRole('button', { name: 'New conversation' }).click();
      await window.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();

      // No new windows, no navigation away from the app.
      expect(await window.evaluate("window.open('https://example.com/') === null")).toBe(true);
      await window.evaluate("location.href = 'https://example.com/'");
      await window.waitForTimeout(500);
      expect(window.url()).toBe('app://fermix/index.html');
      expect(app.windows()).toHaveLength(1);
      await saveScreenshot(window, 'electron-window');
    } finally {
      await app.close();
    }
  }, 90_000);
});
