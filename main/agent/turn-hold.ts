/**
 * Pause / resume of a conversation's running turn (issue 6 "pause/resume … of the running turn").
 *
 * A pause never cuts a step in half: the model reply being streamed, or the tool call being run,
 * finishes (cutting a tool mid-write would lose work; cutting a stream would throw its tokens away),
 * then the loop holds at its next checkpoint — before the next model call or the next tool call —
 * until resume. Meanwhile the state is `pausing`; once the loop is actually waiting it is `paused`.
 * /stop and daemon shutdown wake a held turn through its abort signal, so a pause never blocks them.
 *
 * The hold belongs to the conversation, not to one turn: a message queued behind the paused turn
 * does not start until resume either. It lapses when the conversation has nothing left to run, so a
 * forgotten pause never holds a message sent much later.
 */
export type HoldState = 'running' | 'pausing' | 'paused';

export interface TurnHold {
  state(): HoldState;
  /** False when it was already paused. */
  pause(): boolean;
  /** False when it was not paused. */
  resume(): boolean;
  /** The loop's hold point: returns at once unless paused; otherwise when resumed or aborted. */
  checkpoint(signal: AbortSignal): Promise<void>;
}

export function createTurnHold(onChange: (state: HoldState) => void): TurnHold {
  let requested = false;
  let waiting = 0;
  let releases: (() => void)[] = [];
  const state = (): HoldState => (!requested ? 'running' : waiting > 0 ? 'paused' : 'pausing');

  return {
    state,
    pause() {
      if (requested) return false;
      requested = true;
      onChange(state());
      return true;
    },
    resume() {
      if (!requested) return false;
      requested = false;
      const waking = releases;
      releases = [];
      for (const release of waking) release();
      onChange('running');
      return true;
    },
    async checkpoint(signal) {
      if (!requested || signal.aborted) return;
      waiting += 1;
      if (waiting === 1) onChange('paused');
      try {
        await new Promise<void>((resolve) => {
          const wake = () => {
            signal.removeEventListener('abort', wake);
            resolve();
          };
          releases.push(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
      } finally {
        waiting -= 1;
      }
    },
  };
}
