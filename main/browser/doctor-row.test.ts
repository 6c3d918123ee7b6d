import { describe, expect, it } from 'vitest';
import { homePaths } from '../config/home.js';
import { baseDoctorChecks } from '../daemon/doctor-checks.js';
import { browserDoctorCheck } from './doctor-row.js';

describe('the doctor browser row', () => {
  it('names the executable it found, or the command that installs one, per OS', async () => {
    const linux = { platform: 'linux' as const, env: {}, home: '/home/x', exists: (file: string) => file === '/usr/bin/google-chrome' };
    expect(await browserDoctorCheck(linux).run()).toEqual({ status: 'OK', detail: 'the browser tool drives /usr/bin/google-chrome', fix: '' });
    expect(await browserDoctorCheck({ ...linux, exists: () => false }).run()).toMatchObject({ status: 'WARN', fix: '`sudo apt-get install chromium`' });
    const windows = { platform: 'win32' as const, env: { PROGRAMFILES: 'C:\\Program Files' }, home: 'C:\\Users\\x', exists: (file: string) => file === 'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe' };
    expect((await browserDoctorCheck(windows).run()).detail).toContain('msedge.exe');
    expect(await browserDoctorCheck({ ...windows, exists: () => false }).run()).toMatchObject({ fix: '`winget install --id Google.Chrome`' });
  });

  it('is one of the daemon doctor rows, and finds this machine\'s Chromium', async () => {
    const row = baseDoctorChecks(homePaths('/nonexistent-fermix-home'), { insideDaemon: true }).find((check) => check.id === 'browser');
    expect(row, 'browser row registered').toBeDefined();
    expect(await row!.run()).toMatchObject({ status: 'OK', detail: 'the browser tool drives /usr/bin/chromium' });
  });
});
