import { useId } from 'react';
import type { ApprovalScopeChoice } from '../thread/thread-types.js';

/**
 * Which scope "Always allow" saves, when the daemon offers more than one (this command's program and
 * subcommand or exactly this command; this file, this folder or this tool). A native select: arrow keys
 * and type-ahead work, and the card's A / D keys are not taken while it has focus.
 */
export function ApprovalScopeSelect({ scopes, value, disabled, onChange }: { scopes: ApprovalScopeChoice[]; value: string; disabled: boolean; onChange: (id: string) => void }) {
  const id = useId();
  if (scopes.length < 2) return null;
  return (
    <p className="approval-scope">
      <label htmlFor={id}>Always allow applies to</label>
      <select id={id} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
        {scopes.map((scope) => (
          <option key={scope.id} value={scope.id}>
            {scope.words}
          </option>
        ))}
      </select>
    </p>
  );
}
