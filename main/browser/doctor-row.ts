import type { DoctorCheck } from '../daemon/doctor.js';
import { findBrowserExecutable, installCommand, systemProbe, type ExecutableProbe } from './executable.js';

/** The doctor's browser row: which system browser the `browser` tool would drive, or the command that installs one. */
export function browserDoctorCheck(probe: ExecutableProbe = systemProbe()): DoctorCheck {
  return {
    id: 'browser',
    title: 'browser',
    run() {
      const executable = findBrowserExecutable(probe);
      // A warning, not a failure: everything but the browser tool works without one.
      return executable
        ? { status: 'OK', detail: `the browser tool drives ${executable}`, fix: '' }
        : { status: 'WARN', detail: 'no Chrome, Chromium or Edge found; the browser tool fails with chrome_missing', fix: `\`${installCommand(probe.platform)}\`` };
    },
  };
}
