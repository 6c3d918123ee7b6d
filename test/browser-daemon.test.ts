// The browser inside a real `fermix daemon` process, driven through `fermix capabilities call`: the
// daemon's own origin is refused (so the agent can never read its window or session cookie), and
// stopping the daemon leaves no Chromium behind.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumProcessesFor, requireChromium, startTestSite, type TestSite } from '../main/browser/test-pages.js';
import { runFermixAsync, startDaemonProcess, tempHome, type DaemonProcess } from './support/daemon-process.js';

describe('the browser in a running daemon', () => {
  const home = tempHome('fermix-browser-daemon-');
  const profileDir = join(home, 'browser', 'profiles', 'fermix_headless');
  let daemon: DaemonProcess | undefined;
  let site: TestSite;

  const call = async (args: Record<string, unknown>) => {
    const result = await runFermixAsync(home, ['capabilities', 'call', 'browser', '--json', '--args', JSON.stringify({ profile: 'fermix_headless', ...args })]);
    const parsed = JSON.parse(result.stdout) as { result?: { text: string }; error?: { code: string; message: string } };
    return parsed;
  };

  beforeAll(async () => {
    requireChromium();
    site = await startTestSite();
    // auto mode: this unattended CLI may use the network class.
    writeFileSync(join(home, 'config.toml'), '[permissions]\nmode = "auto"\n');
    daemon = await startDaemonProcess(home);
  });
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    await site?.close();
  });

  it('browses a 127.0.0.1 page but refuses the daemon\'s own port, by address and by name', async () => {
    const opened = await call({ action: 'open', url: `${site.origin}/form` });
    expect(opened.error).toBeUndefined();
    expect(opened.result?.text).toContain('Booking');
    for (const url of [daemon!.base, `http://localhost:${daemon!.port}/api/system.status`, `http://[::ffff:127.0.0.1]:${daemon!.port}/`]) {
      const refused = await call({ action: 'navigate', url });
      expect(refused.error?.code, url).toBe('navigation_blocked');
      expect(refused.error?.message).toContain('the Fermix daemon itself');
    }
  });

  it('closes every Chromium it started when the daemon stops', async () => {
    const running = chromiumProcessesFor(profileDir);
    expect(running.length, 'the daemon runs a Chromium for the profile').toBeGreaterThan(0);
    // The browser's main process is the daemon's own child.
    const parents = running.map((pid) => Number(/^\d+ \(.*?\) \S (\d+)/u.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1]));
    expect(parents).toContain(daemon!.pid);
    daemon!.child.kill('SIGTERM');
    expect(await daemon!.exited).toBe(0);
    expect(chromiumProcessesFor(profileDir)).toEqual([]);
  });
});
