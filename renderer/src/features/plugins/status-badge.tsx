import { readinessOf } from './readiness.js';

/** A readiness state as a coloured pill; the words carry the meaning, the colour only repeats it. */
export function StatusBadge({ status }: { status: string }) {
  const view = readinessOf(status);
  return (
    <span className={`badge plugin-badge plugin-badge-${view.tone}`} data-status={status}>
      {view.label}
    </span>
  );
}
