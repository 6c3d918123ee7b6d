/**
 * Computer use, assembled for the composition root: the tool registers only when
 * `[fermix_core.computer_use] enabled = true` and the native layer works here (a display, not Wayland,
 * nut-js loads). OS permissions (macOS Screen Recording, Accessibility) are not part of that gate:
 * doctor's "computer use" row reports them.
 */
import type { Capability } from '../core/capabilities/capability.js';
import { computerUse } from '../tools/computer-use.js';
import { trackInput, type DesktopBackend } from './backend.js';
import { chooseIdleProbe, type IdleProbe, type UnavailableIdle } from './idle.js';
import { createNutBackend, displayProblem } from './nut-backend.js';
import { createComputerUseRuntime, type ComputerUseRuntime, type ComputerUseRuntimeOptions } from './runtime.js';

export { attendedOrigin, COMPUTER_LIMITS, createComputerUseRuntime } from './runtime.js';
export type { ComputerUseRuntime } from './runtime.js';
export { computerUseDoctorCheck } from './doctor-row.js';
export type { MacPermissions } from './doctor-row.js';

export interface ComputerUseSetupOptions {
  enabled: boolean;
  control: ComputerUseRuntimeOptions['control'];
  liveEnabled: () => boolean;
  accessMode: ComputerUseRuntimeOptions['accessMode'];
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Electron's powerMonitor.getSystemIdleTime (Windows idle, in seconds), when inside the app. */
  systemIdleSeconds?: () => number;
  /** Another native layer (default: nut-js). */
  backend?: () => Promise<DesktopBackend>;
}

export type ComputerUseSetup =
  | { ready: false; reason: string }
  | { ready: true; runtime: ComputerUseRuntime; capability: Capability; idle: IdleProbe | UnavailableIdle };

export async function setUpComputerUse(options: ComputerUseSetupOptions): Promise<ComputerUseSetup> {
  if (!options.enabled) return { ready: false, reason: 'not enabled ([fermix_core.computer_use] enabled = false)' };
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  let backend: DesktopBackend;
  try {
    backend = await (options.backend ?? (() => createNutBackend({ platform, env })))();
  } catch (error) {
    return { ready: false, reason: (error as Error).message };
  }
  const idle = await chooseIdleProbe({ platform, env, systemIdleSeconds: options.systemIdleSeconds });
  const runtime = createComputerUseRuntime({ backend: trackInput(backend), idle, control: options.control, enabled: options.liveEnabled, accessMode: options.accessMode });
  const capability: Capability = { ...computerUse, executor: (args, context) => runtime.execute(args, context) };
  return { ready: true, runtime, capability, idle };
}

export { displayProblem };
