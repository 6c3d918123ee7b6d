import type { ReactNode } from 'react';
import type { WireError } from '../../../main/core/errors.js';

/** An API error as people see it: what went wrong, and the command or screen that fixes it. */
export function ErrorNotice({ error, onDismiss }: { error: WireError; onDismiss?: () => void }) {
  return (
    <div className="error-notice" role="alert">
      <p className="error-message">{withInlineCode(error.message)}</p>
      {error.hint && <p className="error-hint">{withInlineCode(error.hint)}</p>}
      {onDismiss && (
        <button type="button" className="link-button" onClick={onDismiss} aria-label="Dismiss this error">
          Dismiss
        </button>
      )}
    </div>
  );
}

/** Hints name commands in backticks (`fermix status`), as the CLI prints them; show those as code. */
function withInlineCode(text: string): ReactNode[] {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}
