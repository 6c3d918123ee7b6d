import { useId } from 'react';
import { ErrorNotice } from '../../../app/error-notice.js';
import { useThread } from '../../../app/model-context.js';
import { prettyJson, summarizeArgs } from '../../../ui/format.js';
import { Icon } from '../../../ui/icons.js';
import type { ThreadItem } from '../thread/thread-types.js';

const ANSWERED: Record<string, string> = {
  once: 'Allowed once.',
  always: 'Always allowed: the rule below is saved in config.toml.',
  deny: 'Denied: the tool did not run.',
  cancelled: 'No longer waiting (the turn ended or was stopped).',
};

/** "Always" stores exactly `always_covers`; the card shows that rule as it is written, not a paraphrase. */
export function ruleText(covers: NonNullable<Extract<ThreadItem, { kind: 'approval' }>['alwaysCovers']>): string {
  return `permission = "${covers.permission}"${covers.pattern ? `, pattern = "${covers.pattern}"` : ' (every call, no pattern)'}, action = "${covers.action}"${covers.unjailed ? ' — runs unjailed' : ''}`;
}

export function ApprovalCard({ item }: { item: Extract<ThreadItem, { kind: 'approval' }> }) {
  const answer = useThread((state) => state.answerApproval);
  const ruleId = useId();
  const open = item.state === 'pending' || item.state === 'answering';
  const busy = item.state === 'answering';
  const summary = summarizeArgs(item.args, 400);
  return (
    <section className={`card approval-card ${open ? 'approval-open' : 'approval-closed'}`} role="group" aria-label={`Approval needed: ${item.capability}`}>
      <header className="card-header">
        <span className="approval-icon"><Icon name="shield" size={18} /></span>
        <strong>Allow {item.capability}?</strong>
      </header>
      {item.warning && <p className="approval-warning" role="note">{item.warning}</p>}
      <p className="approval-reason">{item.reason}</p>
      {summary && <code className="tool-summary">{summary}</code>}
      {item.args !== undefined && typeof item.args === 'object' && item.args !== null && Object.keys(item.args).length > 1 && (
        <details className="tool-details">
          <summary>All arguments</summary>
          <pre className="tool-pre">{prettyJson(item.args)}</pre>
        </details>
      )}
      <div className="always-covers" id={ruleId}>
        {item.alwaysCovers ? (
          <>
            <p>“Always allow” saves this rule in config.toml, and calls it covers run without asking:</p>
            <code className="rule">{ruleText(item.alwaysCovers)}</code>
          </>
        ) : (
          <p className="muted">Reading what “always” would allow…</p>
        )}
      </div>
      {open ? (
        <div className="actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void answer(item.approvalId, 'once')} aria-label={`Allow ${item.capability} once`}>
            Allow once
          </button>
          <button type="button" disabled={busy || !item.alwaysCovers} onClick={() => void answer(item.approvalId, 'always')} aria-label={`Always allow ${item.capability}`} aria-describedby={ruleId}>
            Always allow
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => void answer(item.approvalId, 'deny')} aria-label={`Deny ${item.capability}`}>
            Deny
          </button>
        </div>
      ) : (
        <p className={`approval-outcome outcome-${item.state}`} role="status">{ANSWERED[item.state]}</p>
      )}
      {item.error && <ErrorNotice error={item.error} />}
    </section>
  );
}
