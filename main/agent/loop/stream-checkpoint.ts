/**
 * Keeps the answer being streamed in the store while it arrives, so a kill -9 keeps what the person
 * already saw (the restart marks the turn interrupted and shows this text). The first text is saved
 * at once, later text at most `intervalMs` after it arrived; each save is one small UPDATE, which in
 * WAL mode is a commit without an fsync. The row becomes the step's final assistant message.
 */
import type { StoredMessage, TurnStore } from '../../store/turns.js';

export interface StreamCheckpoint {
  /** The whole text streamed so far in this model call. */
  update(text: string): void;
  /** Saves pending text now (a stop, a shutdown) and stops the timer. */
  flush(): void;
  /**
   * Writes the step's final assistant message: over the draft row when there is one, else as a new
   * row. Stops the timer. Returns nothing; the next model call starts a fresh draft.
   */
  finish(message: Extract<StoredMessage, { role: 'assistant' }>): void;
  /** Stops the timer without writing (a failed call: its text, if any, is already saved). */
  dispose(): void;
}

export function createStreamCheckpoint(store: TurnStore, conversationId: string, turnId: string, intervalMs = 1_000, now: () => number = Date.now): StreamCheckpoint {
  let draftId: number | null = null;
  let pending: string | null = null;
  let savedAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const save = () => {
    stopTimer();
    if (pending === null) return;
    const draft: StoredMessage = { role: 'assistant', text: pending, toolCalls: [], partial: true };
    pending = null;
    savedAt = now();
    if (draftId === null) draftId = store.appendMessage(conversationId, turnId, draft);
    else store.replaceMessage(draftId, draft);
  };

  return {
    update(text) {
      if (text === '') return;
      pending = text;
      const wait = savedAt + intervalMs - now();
      if (draftId === null || wait <= 0) save();
      // A failing draft save must not crash the daemon from a timer: the step's final write goes
      // through the normal path and reports a broken store there.
      else timer ??= setTimeout(() => { try { save(); } catch { /* reported by finish() */ } }, wait);
    },
    flush: save,
    finish(message) {
      stopTimer();
      pending = null;
      if (draftId === null) store.appendMessage(conversationId, turnId, message);
      else store.replaceMessage(draftId, message);
      draftId = null;
    },
    dispose: stopTimer,
  };
}
