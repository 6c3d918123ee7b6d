// The tray's view of computer use, kept live through the same API the window uses: computer.status once,
// then every `computer.state` event on the system stream (pause, resume, enable or disable — from the
// window, /pause, the CLI or this tray — and an action starting or ending: "acting now"). Its Pause / Resume item calls computer.pause / computer.resume.
// Plain Node, so it is tested against a real daemon without Electron; tray.ts only draws it.
import type { CallContext, DispatchResult } from '../api/dispatcher.js';
import { SYSTEM_STREAM, type EventEnvelope } from '../api/events.js';
import type { ComputerState } from '../api/methods/computer.js';

export interface ComputerUseTrayState {
  /** The latest answer or event; undefined until computer.status answers (or when it failed). */
  readonly current: ComputerState | undefined;
  /** The status line shown (disabled) at the top of the tray menu. */
  label(): string;
  /** The action the toggle item offers. */
  toggleLabel(): string;
  /** Pause or resume through the API; the new state arrives as an event as well as in the answer. */
  toggle(): Promise<void>;
  onChange(listener: () => void): () => void;
  /** Resolves once the first computer.status answered (or failed). */
  readonly ready: Promise<void>;
  dispose(): void;
}

export interface ComputerUseTrayOptions {
  dispatch(method: string, input: unknown, context: CallContext): Promise<DispatchResult>;
  /** The daemon's event bus (all streams), as the IPC adapter subscribes to it. */
  subscribe(listener: (event: EventEnvelope) => void): () => void;
}

const TRAY_CALL: CallContext = { transport: 'ipc', trust: 'operator' };

function isComputerState(value: unknown): value is ComputerState {
  const state = value as ComputerState | undefined;
  return typeof state?.enabled === 'boolean' && typeof state.paused === 'boolean' && typeof state.summary === 'string';
}

/** One honest phrase, as the window's status bar words it (renderer computer-label.ts), plus a pending restart. */
export function trayLabel(state: ComputerState | undefined): string {
  if (!state) return 'Computer use: unknown';
  if (state.restart_required) return state.enabled ? 'Computer use: enabled, starts after a restart' : 'Computer use: turned off, stops after a restart';
  if (!state.enabled) return 'Computer use: not enabled';
  if (state.paused) return 'Computer use: paused';
  return state.acting ? 'Computer use: acting now' : 'Computer use: active';
}

export function createComputerUseTrayState(options: ComputerUseTrayOptions): ComputerUseTrayState {
  let current: ComputerState | undefined;
  const listeners = new Set<() => void>();
  const update = (next: ComputerState) => {
    current = next;
    for (const listener of listeners) listener();
  };
  const unsubscribe = options.subscribe((event) => {
    if (event.stream === SYSTEM_STREAM && event.type === 'computer.state' && isComputerState(event.payload)) update(event.payload);
  });
  const call = async (method: 'computer.status' | 'computer.pause' | 'computer.resume') => {
    const answer = await options.dispatch(method, {}, TRAY_CALL);
    if (answer.ok && isComputerState(answer.result)) {
      // computer.status does not say whether an action runs; the events do, so keep what they said.
      const { enabled, paused, summary, restart_required } = answer.result;
      update({ enabled, paused, summary, ...(restart_required === undefined ? {} : { restart_required }), ...(current?.acting ? { acting: true } : {}) });
    }
  };
  const ready = call('computer.status').catch(() => undefined);
  return {
    get current() {
      return current;
    },
    label: () => trayLabel(current),
    toggleLabel: () => (current?.paused ? 'Resume computer use' : 'Pause computer use'),
    toggle: () => call(current?.paused ? 'computer.resume' : 'computer.pause'),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ready,
    dispose() {
      unsubscribe();
      listeners.clear();
    },
  };
}
