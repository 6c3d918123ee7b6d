import type { WireError } from '../../../main/core/errors.js';

/**
 * An error shown right under the control that caused it. The control points at it with aria-describedby
 * (and aria-invalid), so the message is heard when focus is on the field; role="alert" announces it once.
 */
export function FieldError({ id, error }: { id: string; error: WireError }) {
  const parts = (text: string) => text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
  return (
    <p id={id} className="field-error" role="alert">
      {parts(error.message)}
      {error.hint && <> <span className="field-error-hint">{parts(error.hint)}</span></>}
    </p>
  );
}
