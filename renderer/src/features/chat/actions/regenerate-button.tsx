import { useState } from 'react';
import { useFork } from './use-fork.js';

/** A new answer to the same message, in a copy of the conversation up to it (chat.fork); this one stays. */
export function RegenerateButton({ turnId }: { turnId: string }) {
  const fork = useFork();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="small-button message-action"
      disabled={busy}
      title="Ask again for a new answer, in a copy of this conversation up to your message"
      onClick={() => {
        setBusy(true);
        void fork(turnId).finally(() => setBusy(false));
      }}
    >
      Regenerate
    </button>
  );
}
