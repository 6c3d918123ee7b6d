// The tray's Pause / Resume computer use switch. Pure, so the label logic is tested without Electron.
// The pause lives here, in the shell, until the computer-use module exists in the daemon; then this holder
// should mirror the daemon's state (a `computer.pause` API method) instead of owning it.

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

export function createComputerUseState(options: { enabled: boolean; paused?: boolean }): ComputerUseState {
  let paused = options.paused ?? false;
  const listeners = new Set<() => void>();
  return {
    get paused() {
      return paused;
    },
    enabled: options.enabled,
    label() {
      // Say "not enabled" rather than implying the agent can drive the desktop when config has it off.
      return `Computer use: ${paused ? 'paused' : 'active'}${options.enabled ? '' : ' (not enabled)'}`;
    },
    toggleLabel() {
      return paused ? 'Resume computer use' : 'Pause computer use';
    },
    toggle() {
      paused = !paused;
      for (const listener of listeners) listener();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
