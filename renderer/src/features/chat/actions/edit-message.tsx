import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useFork } from './use-fork.js';

/**
 * Edit-and-resend: the edited words go to a copy of the conversation up to this message (chat.fork);
 * the original conversation, with its later answers, stays as it was.
 */
export function EditMessage({ turnId, text, onClose }: { turnId: string; text: string; onClose: () => void }) {
  const [value, setValue] = useState(text);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement | null>(null);
  const fork = useFork();
  useEffect(() => box.current?.focus(), []);
  const send = async () => {
    const edited = value.trim();
    if (!edited || busy) return;
    setBusy(true);
    const ok = await fork(turnId, edited);
    if (!ok) setBusy(false);
    else onClose();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };
  return (
    <form
      className="message message-user message-editing"
      aria-label="Edit your message"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <textarea ref={box} value={value} rows={3} aria-label="Edited message" onChange={(event) => setValue(event.target.value)} onKeyDown={onKeyDown} disabled={busy} />
      <p className="muted small">Sends to a copy of this conversation up to here; this one stays as it is.</p>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || !value.trim()}>
          Send edited
        </button>
        <button type="button" onClick={onClose} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
