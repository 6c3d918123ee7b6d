// The tray's Pause / Resume computer use switch. Pure, so the label logic is tested without Electron.
// With `control` (the daemon's switch, RunningDaemon.computerUse) the tray, the window and /pause share
// one state; without it (tests) the holder keeps its own.

export interface ComputerUseState {
  readonly paused: boolean;
  /** `[fermix_core.computer_use] enabled` from config.toml: off by default, as in Fermix. */
  readonly enabled: boolean;
  /** The status line shown (disabled) at the top of the tray menu. */
  label(): string;
  /** The action the toggle item offers. */
  toggleLabel(): string;
  toggle(): void;
  onChange(listener: () => void): () => void;
}

export interface PauseSwitch {
  readonly paused: boolean;
  setPaused(paused: boolean): boolean;
  onChange(listener: (paused: boolean) => void): () => void;
}

export function createComputerUseState(options: { enabled: boolean; paused?: boolean; control?: PauseSwitch }): ComputerUseState {
  let ownPaused = options.paused ?? false;
  const listeners = new Set<() => void>();
  const control = options.control;
  control?.onChange(() => {
    for (const listener of listeners) listener();
  });
  const isPaused = () => (control ? control.paused : ownPaused);
  return {
    get paused() {
      return isPaused();
    },
    enabled: options.enabled,
    label() {
      // Say "not enabled" rather than implying the agent can drive the desktop when config has it off.
      return `Computer use: ${isPaused() ? 'paused' : 'active'}${options.enabled ? '' : ' (not enabled)'}`;
    },
    toggleLabel() {
      return isPaused() ? 'Resume computer use' : 'Pause computer use';
    },
    toggle() {
      if (control) {
        control.setPaused(!control.paused); // listeners run through control.onChange
        return;
      }
      ownPaused = !ownPaused;
      for (const listener of listeners) listener();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
