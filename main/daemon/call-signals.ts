/**
 * Per-call abort signals hung off the daemon's lifetime signal. Passing the lifetime signal itself to
 * every call put one 'abort' listener per concurrent call on that one signal (the capability invoker,
 * the sandbox runner, guarded fetch each add one while they run), which is the
 * MaxListenersExceededWarning seen past 10 concurrent calls. Here the lifetime signal carries exactly
 * one listener, and each call's listeners sit on that call's own signal.
 */
export function createCallSignals(lifetime: AbortSignal) {
  const live = new Set<AbortController>();
  lifetime.addEventListener('abort', () => {
    for (const controller of live) controller.abort(lifetime.reason);
    live.clear();
  }, { once: true });

  return {
    /** A signal for one call; `release` must run when the call ends (finally). */
    open(): { signal: AbortSignal; release: () => void } {
      const controller = new AbortController();
      if (lifetime.aborted) controller.abort(lifetime.reason);
      else live.add(controller);
      return { signal: controller.signal, release: () => void live.delete(controller) };
    },
    /** Calls currently holding a signal. */
    get size() {
      return live.size;
    },
  };
}
