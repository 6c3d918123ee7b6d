/**
 * Doctor's "computer use" row (reference: `computer_use_permissions`). It reports why the tool is or is
 * not registered, whether the person's idle time can be read, and on macOS which permissions are
 * missing — those are not part of the registration gate, because clicks fail silently without
 * Accessibility while everything else works, and only the person can grant them.
 */
import { loadConfig } from '../config/config-file.js';
import type { DoctorCheck } from '../daemon/doctor.js';
import { chooseIdleProbe } from './idle.js';
import { displayProblem } from './nut-backend.js';

/** From the Electron shell (systemPreferences), the only host that can ask macOS. */
export interface MacPermissions {
  accessibility: boolean;
  screenRecording: boolean;
}

export interface ComputerUseDoctorOptions {
  configFile: string;
  /** The daemon's live view, when it runs inside one: registration outcome and idle detection. */
  live?: () => { registered: boolean; reason?: string; idle?: { available: boolean; detail: string } };
  macPermissions?: () => MacPermissions | undefined;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

const MAC_FIX = 'Open System Settings › Privacy & Security, and allow Fermix under both Screen Recording and Accessibility; then restart Fermix.';

export function computerUseDoctorCheck(options: ComputerUseDoctorOptions): DoctorCheck {
  return {
    id: 'computer_use_permissions',
    title: 'computer use',
    async run() {
      let enabled: boolean;
      try {
        enabled = loadConfig(options.configFile).config.fermix_core.computer_use.enabled;
      } catch {
        return { status: 'N/A', detail: 'config.toml is invalid (see the config row)', fix: '' };
      }
      if (!enabled) return { status: 'N/A', detail: 'off ([fermix_core.computer_use] enabled = false)', fix: '' };
      const platform = options.platform ?? process.platform;
      const env = options.env ?? process.env;
      const live = options.live?.();
      const problem = live ? (live.registered ? undefined : live.reason) : displayProblem(platform, env);
      if (problem) return { status: 'FAIL', detail: `enabled but not registered: ${problem}`, fix: 'Run Fermix in an X11 session (not Wayland) on Linux, or on macOS or Windows; then restart the daemon.' };
      const idle = live?.idle ?? (await standaloneIdle(platform, env));
      const parts = [live ? 'registered' : 'the display is usable', idle.detail];
      let status: 'OK' | 'WARN' = idle.available ? 'OK' : 'WARN';
      let fix = idle.available ? '' : platform === 'linux' ? 'Install xprintidle (`sudo apt-get install xprintidle`) so the agent can step aside while you work.' : 'Run Fermix as the desktop app, which reads the idle time for the agent.';
      if (platform === 'darwin') {
        const granted = options.macPermissions?.();
        if (!granted) {
          status = 'WARN';
          parts.push('Screen Recording and Accessibility cannot be checked from the headless daemon');
          fix = MAC_FIX;
        } else {
          const missing = [granted.screenRecording ? '' : 'Screen Recording', granted.accessibility ? '' : 'Accessibility'].filter(Boolean);
          if (missing.length > 0) {
            status = 'WARN';
            parts.push(`missing: ${missing.join(' and ')} (without Accessibility clicks are silently dropped)`);
            fix = MAC_FIX;
          }
        }
      }
      return { status, detail: parts.join('; '), fix };
    },
  };
}

async function standaloneIdle(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Promise<{ available: boolean; detail: string }> {
  const probe = await chooseIdleProbe({ platform, env });
  return 'reason' in probe ? { available: false, detail: `idle detection unavailable (${probe.reason})` } : { available: true, detail: `idle time from ${probe.source}` };
}
