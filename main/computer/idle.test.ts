// The idle readers of the OSes this machine is not (macOS ioreg, Windows powerMonitor seconds) through
// their parsers, fed output in the documented format; and what doctor and status say when idle time
// cannot be read. The X11 reader itself is tested against Xvfb in computer-use.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computerUseState, createComputerUseControl } from '../daemon/computer-handlers.js';
import { loadConfig } from '../config/config-file.js';
import { computerUseDoctorCheck } from './doctor-row.js';
import { awaitPersonIdle, chooseIdleProbe, createSecondsProbe, parseHidIdleTime, personIdleMs } from './idle.js';

/**
 * `ioreg -c IOHIDSystem -d 4` as macOS prints it (IOKit registry, IOService plane): the IOHIDSystem
 * node's properties, HIDIdleTime in nanoseconds, next to HIDParameters whose keys also start with "HID".
 * Written from Apple's documented format, not captured on a Mac (none is available here).
 */
const IOREG_SAMPLE = `+-o Root  <class IORegistryEntry, id 0x100000100, retain 26>
  +-o MacBookPro18,3  <class IOPlatformExpertDevice, id 0x10000020f, registered, matched, active, busy 0 (77826 ms), retain 37>
    +-o IOResources  <class IOResources, id 0x100000110, registered, matched, active, busy 0 (32 ms), retain 61>
      +-o IOHIDSystem  <class IOHIDSystem, id 0x1000004a4, registered, matched, active, busy 0 (0 ms), retain 22>
        | {
        |   "IOClass" = "IOHIDSystem"
        |   "CFBundleIdentifier" = "com.apple.iokit.IOHIDFamily"
        |   "IOProviderClass" = "IOResources"
        |   "HIDParameters" = {"HIDClickTime"=500000000,"HIDAutoDimThreshold"=300000000000,"HIDKeyRepeat"=83333333,"HIDClickSpace"={5,3},"HIDInitialKeyRepeat"=250000000}
        |   "IOGeneralInterest" = "IOCommand is not serializable"
        |   "HIDIdleTime" = 1203456789
        |   "IOMatchCategory" = "IOHIDSystem"
        |   "IOUserClientClass" = "IOHIDUserClient"
        |   "HIDScrollCountBootDefault" = 1
        | }
        |
        +-o IOHIDUserClient  <class IOHIDUserClient, id 0x1000005b2, !registered, !matched, active, busy 0, retain 6>
`;

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function configWith(enabled: boolean): string {
  const home = mkdtempSync(path.join(tmpdir(), 'fermix-idle-'));
  homes.push(home);
  const file = path.join(home, 'config.toml');
  writeFileSync(file, `[fermix_core.computer_use]\nenabled = ${enabled}\n`);
  return file;
}

describe('macOS: HIDIdleTime from ioreg', () => {
  it('reads nanoseconds as whole milliseconds, and nothing from output without the key', () => {
    expect(parseHidIdleTime(IOREG_SAMPLE)).toBe(1203);
    expect(parseHidIdleTime(IOREG_SAMPLE.replace('1203456789', '999999'))).toBe(0);
    // A counter past 2^53 ns (104 days idle) stays exact to the millisecond.
    expect(parseHidIdleTime(IOREG_SAMPLE.replace('1203456789', '9007199254740993123'))).toBe(9007199254740);
    expect(parseHidIdleTime(IOREG_SAMPLE.replace(/\s+\| +"HIDIdleTime".*\n/u, '\n'))).toBeUndefined();
    expect(parseHidIdleTime('')).toBeUndefined();
  });

  it('is unavailable, with the reason, where ioreg cannot be run', async () => {
    expect(await chooseIdleProbe({ platform: 'darwin' })).toEqual({ source: 'none', reason: '`ioreg` did not report HIDIdleTime' });
  });
});

describe('Windows: powerMonitor whole seconds', () => {
  it('reads seconds as milliseconds at a 1000 ms resolution, and refuses values that are not a count', async () => {
    let seconds = 3;
    const probe = createSecondsProbe(() => seconds);
    expect(probe.resolutionMs).toBe(1000);
    expect(await probe.read()).toBe(3000);
    seconds = 0;
    expect(await probe.read()).toBe(0);
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      seconds = bad;
      expect(await probe.read()).toBeUndefined();
    }
  });

  it('is chosen on Windows only when the desktop app hands powerMonitor in', async () => {
    expect(await chooseIdleProbe({ platform: 'win32', systemIdleSeconds: () => 7 })).toMatchObject({ source: 'powerMonitor.getSystemIdleTime (whole seconds)', resolutionMs: 1000 });
    expect(await chooseIdleProbe({ platform: 'win32', systemIdleSeconds: () => Number.NaN })).toEqual({ source: 'none', reason: 'powerMonitor did not answer' });
    expect(await chooseIdleProbe({ platform: 'win32' })).toMatchObject({ source: 'none', reason: expect.stringContaining('the desktop app provides one') });
  });

  it('a whole second of idle right after our own input is ours, not the person\'s (the resolution is allowed for)', async () => {
    const now = 50_000;
    // We sent input 900 ms ago; the counter says 0 s (it rounds down): the newest input may be ours.
    expect(personIdleMs(0, now - 900, now, 1000)).toBe(Number.POSITIVE_INFINITY);
    // 3 s since ours but 1 s idle: the person touched something since.
    expect(personIdleMs(1000, now - 3000, now, 1000)).toBe(1000);
    const person = await awaitPersonIdle({ probe: createSecondsProbe(() => 0), lastOwnInputAt: () => 0, maxWaitMs: 0 });
    expect(person.outcome).toBe('active');
  });
});

describe('saying so when idle time cannot be read', () => {
  it('doctor warns and names what to install or run, per OS', async () => {
    const enabled = configWith(true);
    const mac = await computerUseDoctorCheck({ configFile: enabled, platform: 'darwin', env: {}, macPermissions: () => ({ accessibility: true, screenRecording: true }) }).run();
    expect(mac).toMatchObject({ status: 'WARN', detail: 'the display is usable; idle detection unavailable (`ioreg` did not report HIDIdleTime)' });
    const windows = await computerUseDoctorCheck({ configFile: enabled, platform: 'win32', env: {} }).run();
    expect(windows.status).toBe('WARN');
    expect(windows.detail).toContain('idle detection unavailable (the headless daemon on this OS has no idle counter');
    expect(windows.fix).toContain('desktop app');
    const linux = await computerUseDoctorCheck({ configFile: enabled, platform: 'linux', env: { DISPLAY: ':1' }, live: () => ({ registered: true, idle: { available: false, detail: 'idle detection unavailable (xprintidle is not installed)' } }) }).run();
    expect(linux).toMatchObject({ status: 'WARN', fix: expect.stringContaining('apt-get install xprintidle') });
    expect((await computerUseDoctorCheck({ configFile: configWith(false) }).run()).status).toBe('N/A');
  });

  it('computer.status adds the note to its summary', () => {
    const file = configWith(true);
    const config = () => loadConfig(file).config;
    const unreadable = computerUseState(config, createComputerUseControl(false), () => ({ registered: true, idle: { available: false, detail: 'idle detection unavailable (`ioreg` did not report HIDIdleTime); the agent acts without waiting for you to pause' } }));
    expect(unreadable.summary).toBe('Computer use is active: the agent may drive this desktop when a turn asks for it. Note: idle detection unavailable (`ioreg` did not report HIDIdleTime); the agent acts without waiting for you to pause.');
    const readable = computerUseState(config, createComputerUseControl(false), () => ({ registered: true, idle: { available: true, detail: 'idle time from ioreg HIDIdleTime' } }));
    expect(readable.summary).not.toContain('Note');
  });
});
