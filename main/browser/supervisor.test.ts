// Supervision with real processes and an injected clock (no waiting): idle profiles close after 15 min,
// launch failures cool down 30 s → 60 s → … → 300 s after 3 in a row, and a missing browser names the fix.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { createBrowserService } from './service.js';
import { IDLE_TTL_MS } from './supervisor.js';
import { chromiumProcessesFor, requireChromium } from './test-pages.js';

const root = mkdtempSync(path.join(tmpdir(), 'fermix-browser-sup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function failure(promise: Promise<unknown>): Promise<FermixError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FermixError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const signal = new AbortController().signal;

describe('browser supervisor', () => {
  it('closes a profile idle for 15 minutes, and launches it again on the next call', async () => {
    requireChromium();
    let now = 1_000_000;
    const profilesDir = path.join(root, 'idle');
    const service = createBrowserService({ profilesDir, daemonPorts: () => [], hasDisplay: () => false, clock: () => now, sweepEveryMs: 0 });
    try {
      await service.call({ action: 'start', profile: 'fermix' }, { signal });
      const dir = path.join(profilesDir, 'fermix');
      expect(chromiumProcessesFor(dir).length).toBeGreaterThan(0);
      now += IDLE_TTL_MS - 1;
      expect(await service.supervisor.sweepIdle()).toEqual([]);
      now += 1;
      expect(await service.supervisor.sweepIdle()).toEqual(['fermix']);
      expect(service.supervisor.liveCount()).toBe(0);
      expect(chromiumProcessesFor(dir)).toEqual([]);
      // Not a crash: the next call starts it without a "relaunched" note.
      const again = await service.call({ action: 'start', profile: 'fermix' }, { signal });
      expect(again.text).not.toContain('relaunched');
      expect(service.supervisor.liveCount()).toBe(1);
    } finally {
      await service.shutdown();
    }
    expect(chromiumProcessesFor(path.join(profilesDir, 'fermix'))).toEqual([]);
  });

  it('keeps at most the cap of live profiles, closing the least recently used one to start another', async () => {
    requireChromium();
    let now = 2_000_000;
    const profilesDir = path.join(root, 'cap');
    const events: string[] = [];
    // The cap is 6; with 3 managed profiles, a cap of 2 is what makes the eviction reachable here.
    const service = createBrowserService({ profilesDir, daemonPorts: () => [], hasDisplay: () => false, clock: () => (now += 1000), sweepEveryMs: 0, maxLive: 2, onEvent: (what, fields) => events.push(`${what} ${String(fields.profile)}`) });
    try {
      await service.call({ action: 'start', profile: 'fermix' }, { signal });
      await service.call({ action: 'start', profile: 'fermix_headless' }, { signal });
      await service.call({ action: 'tabs', profile: 'fermix' }, { signal }); // fermix is used again: fermix_headless is now the oldest
      await service.call({ action: 'start', profile: 'fermix_visible' }, { signal });
      expect(events).toContain('browser profile evicted fermix_headless');
      expect(service.supervisor.liveCount()).toBe(2);
      expect(chromiumProcessesFor(path.join(profilesDir, 'fermix_headless'))).toEqual([]);
      expect(chromiumProcessesFor(path.join(profilesDir, 'fermix')).length).toBeGreaterThan(0);
    } finally {
      await service.shutdown();
    }
  });

  it('cools down after 3 failed launches, doubling from 30 s up to 300 s', async () => {
    let now = 5_000_000;
    // /bin/false exists and exits at once: a real launch that really fails.
    const service = createBrowserService({ profilesDir: path.join(root, 'failing'), daemonPorts: () => [], hasDisplay: () => false, clock: () => now, sweepEveryMs: 0, executablePath: '/bin/false', launchTimeoutMs: 5_000 });
    try {
      for (let attempt = 1; attempt <= 3; attempt += 1) expect((await failure(service.call({ action: 'start' }, { signal }))).code).toBe('host_lost');
      const cooling = await failure(service.call({ action: 'start' }, { signal }));
      expect(cooling.message).toContain('cooling down');
      expect(cooling.data).toMatchObject({ retry_after: 30, failures: 3 });
      const waits: number[] = [];
      let wait = 30;
      for (let round = 0; round < 5; round += 1) {
        now += wait * 1000 + 1; // the cooldown is over: the next call really tries again, and fails again
        expect((await failure(service.call({ action: 'start' }, { signal }))).message).toContain('did not start');
        wait = Number(((await failure(service.call({ action: 'start' }, { signal }))).data as { retry_after: number }).retry_after);
        waits.push(wait);
      }
      expect(waits).toEqual([60, 120, 240, 300, 300]);
    } finally {
      await service.shutdown();
    }
  });

  it('says chrome_missing with the install command when no browser is found', async () => {
    const probe = { platform: 'linux' as const, env: {}, home: '/nonexistent', exists: () => false };
    const service = createBrowserService({ profilesDir: path.join(root, 'missing'), daemonPorts: () => [], probe, sweepEveryMs: 0 });
    const error = await failure(service.call({ action: 'open', url: 'about:blank' }, { signal }));
    expect(error.code).toBe('chrome_missing');
    expect(error.hint).toContain('`sudo apt-get install chromium`');
    const doctor = await service.call({ action: 'doctor' }, { signal });
    expect(doctor.data).toMatchObject({ executable: null, install_command: 'sudo apt-get install chromium' });
    const mac = createBrowserService({ profilesDir: path.join(root, 'mac'), daemonPorts: () => [], probe: { ...probe, platform: 'darwin', exists: (file: string) => file === '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome' }, sweepEveryMs: 0 });
    expect((await mac.call({ action: 'doctor' }, { signal })).data).toMatchObject({ executable: '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome' });
    await service.shutdown();
    await mac.shutdown();
  });
});
