/**
 * API handlers of computer.status / computer.pause / computer.resume (main/api/methods/computer.ts).
 * The daemon owns the pause switch, so the chat's /pause, the Controls bar and the tray agree; the
 * computer_use runtime (main/computer/runtime.ts) asks `control.paused` before every action and between
 * the keystrokes of one. Enabled is read from config at each call, so the answer is honest about
 * "not enabled" without a restart; `native` says whether the tool registered and whether idle time can
 * be read (where it cannot, the agent acts without waiting for the person, and status says so).
 */
import type { Handlers } from '../api/dispatcher.js';
import { FermixError } from '../core/errors.js';
import type { ComputerState } from '../api/methods/computer.js';
import type { FermixConfig } from '../config/schema.js';
import { updateConfig } from '../config/config-file.js';

export interface ComputerUseControl {
  readonly paused: boolean;
  setPaused(paused: boolean): boolean;
  onChange(listener: (paused: boolean) => void): () => void;
}

/** The one pause switch; the composition root creates it and hands it to the handlers, the tray and the tool. */
export function createComputerUseControl(initial = false): ComputerUseControl {
  let paused = initial;
  const listeners = new Set<(paused: boolean) => void>();
  return {
    get paused() {
      return paused;
    },
    setPaused(next) {
      if (next === paused) return false;
      paused = next;
      for (const listener of listeners) listener(paused);
      return true;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ComputerMethodName = 'computer.status' | 'computer.pause' | 'computer.resume' | 'computer.set_enabled';

export interface ComputerHandlersOptions {
  control: ComputerUseControl;
  /** Current config (createConfigReader(paths.config)), for `[fermix_core.computer_use] enabled`. */
  config: () => FermixConfig;
  native?: () => ComputerNative;
  /** For computer.set_enabled: config.toml (written atomically by updateConfig) and what this daemon started with. */
  configFile?: string;
  bootEnabled?: boolean;
  /** The native-layer check run when enabling (default: load nut-js and query the display). */
  probeNative?: () => Promise<{ available: boolean; detail: string }>;
  /** Whether a computer_use action runs now (the runtime's `acting()`); absent: never. */
  acting?: () => boolean;
}

/** Loads the desktop library and asks for the screen size, as the start-up does; nothing stays open. */
export async function probeNativeLayer(): Promise<{ available: boolean; detail: string }> {
  try {
    const { createNutBackend } = await import('../computer/nut-backend.js');
    await createNutBackend();
    return { available: true, detail: 'The desktop layer works here.' };
  } catch (error) {
    return { available: false, detail: (error as Error).message };
  }
}

/** What main/computer found at start: registered or why not, and the idle detection in use. */
export interface ComputerNative {
  registered: boolean;
  reason?: string;
  idle?: { available: boolean; detail: string };
}

export function describeComputerUse(enabled: boolean, paused: boolean): string {
  if (!enabled) return 'Computer use is not enabled ([fermix_core.computer_use] enabled = false), so the agent cannot drive this desktop.';
  return paused
    ? 'Computer use is paused: the agent may not move the pointer or type until you resume it.'
    : 'Computer use is active: the agent may drive this desktop when a turn asks for it.';
}

/** What computer.status answers and the `computer.state` event carries. */
export function computerUseState(config: () => FermixConfig, control: ComputerUseControl, native?: () => ComputerNative, bootEnabled?: boolean): ComputerState {
  const enabled = config().fermix_core.computer_use.enabled;
  if (bootEnabled !== undefined && enabled !== bootEnabled) {
    // The tool registers (or unregisters) only at start: say so rather than describe a state not yet real.
    const summary = enabled ? 'Computer use is enabled in config.toml; it starts after the daemon restarts.' : 'Computer use is turned off in config.toml; it stops after the daemon restarts.';
    return { enabled, paused: control.paused, summary, restart_required: true };
  }
  // A pause is kept even while disabled, so enabling it later does not silently resume.
  let summary = describeComputerUse(enabled, control.paused);
  const found = enabled ? native?.() : undefined;
  if (found && !found.registered) summary = found.reason ?? 'Computer use is enabled but its desktop layer did not start.';
  else if (found?.idle && !found.idle.available) summary += ` Note: ${found.idle.detail}.`;
  return { enabled, paused: control.paused, summary, ...(bootEnabled === undefined ? {} : { restart_required: false }) };
}

export function createComputerHandlers(options: ComputerHandlersOptions): Pick<Handlers, ComputerMethodName> {
  // computer.status says "acting" as the computer.state event does, so a window opened mid-action shows it.
  const state = (): ComputerState => ({ ...computerUseState(options.config, options.control, options.native, options.bootEnabled), acting: options.acting?.() ?? false });
  return {
    'computer.status': () => state(),
    'computer.pause': () => {
      const changed = options.control.setPaused(true);
      return { ...state(), changed };
    },
    'computer.resume': () => {
      const changed = options.control.setPaused(false);
      return { ...state(), changed };
    },
    'computer.set_enabled': async (input) => {
      if (options.configFile === undefined || options.bootEnabled === undefined) {
        throw new FermixError({ code: 'service_unavailable', message: 'This daemon cannot change the computer use setting.', hint: 'Set [fermix_core.computer_use] enabled in config.toml, then run `fermix restart`.' });
      }
      const native = input.enabled ? await (options.probeNative ?? probeNativeLayer)() : null;
      updateConfig(options.configFile, (raw) => {
        const core = (raw.fermix_core ??= {}) as Record<string, unknown>;
        const computer = (core.computer_use ??= {}) as Record<string, unknown>;
        computer.enabled = input.enabled;
      });
      const current = state();
      const summary = native && !native.available ? `${current.summary} The desktop layer is not available here: ${native.detail}.` : current.summary;
      return { ...current, summary, restart_required: current.restart_required ?? false, native };
    },
  };
}
