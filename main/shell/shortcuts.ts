// Global push-to-talk. Electron's globalShortcut reports key presses only (no release), so each press
// toggles listening in the renderer; the voice feature decides what a toggle means.
import { globalShortcut } from 'electron';
import type { EventEnvelope } from '../api/events.js';
import { checkAccelerator, DEFAULT_PUSH_TO_TALK } from './accelerator.js';

/** Shell events use their own stream, so their sequence numbers never mix with the daemon's. */
export const SHELL_STREAM = 'shell';
export const PUSH_TO_TALK_EVENT = 'voice.push_to_talk';

export interface PushToTalk {
  accelerator: string | undefined;
  /** Why the shortcut is not active, for the log and the settings screen. */
  problem: string | undefined;
  dispose(): void;
}

export function registerPushToTalk(options: { accelerator?: string; send(event: EventEnvelope): void }): PushToTalk {
  const wanted = options.accelerator?.trim() || DEFAULT_PUSH_TO_TALK;
  const checked = checkAccelerator(wanted);
  if (!checked.ok) return { accelerator: undefined, problem: `Push-to-talk shortcut not set: ${checked.problem}.`, dispose() {} };
  let seq = 0;
  let registered: boolean;
  try {
    registered = globalShortcut.register(checked.accelerator, () => {
      seq += 1;
      options.send({ stream: SHELL_STREAM, seq, type: PUSH_TO_TALK_EVENT, time: new Date().toISOString(), payload: { action: 'toggle' } });
    });
  } catch (error) {
    return { accelerator: undefined, problem: `Push-to-talk shortcut ${checked.accelerator} was refused: ${(error as Error).message}.`, dispose() {} };
  }
  if (!registered) {
    return { accelerator: undefined, problem: `Push-to-talk shortcut ${checked.accelerator} is taken by another application; choose another one.`, dispose() {} };
  }
  return {
    accelerator: checked.accelerator,
    problem: undefined,
    dispose: () => globalShortcut.unregister(checked.accelerator),
  };
}
