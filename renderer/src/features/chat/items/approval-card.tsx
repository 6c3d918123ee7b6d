import { Icon } from '../../../ui/icons.js';
import { summarizeArgs } from '../../../ui/format.js';
import type { ApprovalItem } from '../thread/display.js';
import { ApprovalPanel, approvalOutcome } from './approval-panel.js';
import { actionWords } from './approval-words.js';

/**
 * An approval whose tool call is not on screen (asked for by another surface, or read before its call):
 * the same question as a tool card's, and one line once answered.
 */
export function ApprovalCard({ item }: { item: ApprovalItem }) {
  const action = actionWords(item.capability);
  const open = item.state === 'pending' || item.state === 'answering';
  if (!open) {
    return (
      <section className="card tool-card tool-line approval-closed" role="group" aria-label={`Approval: ${action}`}>
        <p className="tool-line-summary">
          <span className="tool-icon"><Icon name="shield" size={14} /></span>
          <span className="tool-action">{action}</span>
          <code className="tool-summary">{summarizeArgs(item.args, 120)}</code>
          <span className={`approval-outcome outcome-${item.state}`} role="status">{approvalOutcome(item)}</span>
        </p>
      </section>
    );
  }
  return (
    <section className="card approval-card approval-open" role="group" aria-label={`Approval needed: ${action}`}>
      <header className="card-header">
        <span className="approval-icon"><Icon name="shield" size={18} /></span>
        <strong>{action}?</strong>
        <span className="muted small">{item.capability}</span>
      </header>
      <ApprovalPanel approval={item} capability={item.capability} args={item.args} />
    </section>
  );
}
