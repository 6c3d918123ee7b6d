import { formatDuration, prettyJson, summarizeArgs } from '../../../ui/format.js';
import { Icon } from '../../../ui/icons.js';
import type { DisplayItem } from '../thread/display.js';
import type { ToolStatus } from '../thread/thread-types.js';
import { ApprovalPanel, approvalOutcome } from './approval-panel.js';
import { actionWords } from './approval-words.js';

const STATUS_LABEL: Record<ToolStatus, string> = {
  running: 'Running',
  parked: 'Waiting for your answer',
  ok: 'Done',
  error: 'Failed',
  cancelled: 'Cancelled',
};

type ToolView = Extract<DisplayItem, { kind: 'tool' }>;

/**
 * One card per tool call. While its approval waits, the card is the approval (ApprovalPanel); otherwise
 * it is one line — what ran, how it went, how long it took — with arguments and result behind "details".
 */
export function ToolCallCard({ item }: { item: ToolView }) {
  const action = actionWords(item.name);
  const approval = item.approval;
  const waiting = approval !== null && (approval.state === 'pending' || approval.state === 'answering');
  if (waiting) {
    return (
      <section className="card tool-card approval-card approval-open" role="group" aria-label={`Approval needed: ${action}`}>
        <header className="card-header">
          <span className="approval-icon"><Icon name="shield" size={18} /></span>
          <strong>{action}?</strong>
          <span className="muted small">{item.name}</span>
        </header>
        <ApprovalPanel approval={approval} capability={item.name} args={item.args} />
      </section>
    );
  }
  const summary = summarizeArgs(item.args, 120);
  const outcome = approval ? approvalOutcome(approval) : null;
  // Denied by the person: that is the whole story, not a failure with the gate's error text.
  const denied = approval?.state === 'deny';
  const renamed = item.requestedName !== item.name;
  return (
    <section className={`card tool-card tool-line status-${item.status}`} aria-label={`Tool call ${item.name}: ${STATUS_LABEL[item.status]}`}>
      <details className="tool-details">
        <summary className="tool-line-summary">
          <span className="tool-icon"><Icon name={approval ? 'shield' : 'gear'} size={14} /></span>
          <span className="tool-action">{action}</span>
          {summary && <code className="tool-summary">{summary}</code>}
          {!denied && (
            <span className={`badge badge-${item.status}`}>
              {item.status === 'running' && <span className="spinner" aria-hidden="true" />}
              {STATUS_LABEL[item.status]}
              {item.errorCode && item.status === 'error' ? ` · ${item.errorCode}` : ''}
            </span>
          )}
          {outcome && <span className={`small tool-outcome outcome-${approval?.state}`}>{outcome}</span>}
          {item.durationMs !== null && !denied && <span className="muted small tool-duration" title="Time the tool ran (not the time it waited for you)">{formatDuration(item.durationMs)}</span>}
        </summary>
        <p className="muted small">
          {item.name}
          {renamed ? ` (called as ${item.requestedName})` : ''}
        </p>
        <h4>Arguments</h4>
        <pre className="tool-pre">{prettyJson(item.args)}</pre>
        {item.preview !== null && (
          <>
            <h4>Result (first 2,000 characters)</h4>
            <pre className="tool-pre">{item.preview || '(empty)'}</pre>
          </>
        )}
      </details>
      {item.preview !== null && item.status !== 'ok' && item.preview && !denied && <p className="tool-error">{item.preview.split('\n')[0]}</p>}
      {item.imagesOmitted !== undefined && item.imagesOmitted > 0 && (
        <p className="muted small tool-images-omitted">{item.imagesOmitted === 1 ? 'Its image is' : `Its ${item.imagesOmitted} images are`} no longer shown: a conversation keeps its newest 3.</p>
      )}
      {item.images.length > 0 && (
        <div className="tool-images">
          {item.images.map((image, index) => (
            <img key={index} src={`data:${image.mime_type};base64,${image.base64}`} alt={`Image ${index + 1} returned by ${item.name}`} loading="lazy" />
          ))}
        </div>
      )}
    </section>
  );
}
