import { useEffect } from 'react';

/** A short-lived note with one action (Undo); it leaves by itself after `ms`. */
export function UndoToast({ text, onUndo, onDismiss, ms = 8000 }: { text: string; onUndo: () => void; onDismiss: () => void; ms?: number }) {
  useEffect(() => {
    const timer = setTimeout(onDismiss, ms);
    return () => clearTimeout(timer);
  }, [text, onDismiss, ms]);
  return (
    <div className="toast" role="status">
      <span className="toast-text">{text}</span>
      <button type="button" className="link-button" onClick={onUndo}>Undo</button>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>×</button>
    </div>
  );
}
