import { formatDuration, prettyJson, summarizeArgs } from '../../../ui/format.js';
import { Icon } from '../../../ui/icons.js';
import type { ThreadItem, ToolStatus } from '../thread/thread-types.js';

const STATUS_LABEL: Record<ToolStatus, string> = {
  running: 'Running',
  parked: 'Waiting for your approval',
  ok: 'Done',
  error: 'Failed',
  cancelled: 'Cancelled',
};

export function ToolCallCard({ item }: { item: Extract<ThreadItem, { kind: 'tool' }> }) {
  const summary = summarizeArgs(item.args);
  const renamed = item.requestedName !== item.name;
  return (
    <section className={`card tool-card status-${item.status}`} aria-label={`Tool call ${item.name}: ${STATUS_LABEL[item.status]}`}>
      <header className="card-header">
        <span className="tool-icon"><Icon name="gear" /></span>
        <span className="tool-name">{item.name}</span>
        {renamed && <span className="muted small">(called as {item.requestedName})</span>}
        <span className={`badge badge-${item.status}`}>
          {item.status === 'running' && <span className="spinner" aria-hidden="true" />}
          {STATUS_LABEL[item.status]}
          {item.errorCode && item.status === 'error' ? ` · ${item.errorCode}` : ''}
        </span>
        {item.durationMs !== null && <span className="muted small tool-duration">{formatDuration(item.durationMs)}</span>}
      </header>
      {/* While parked, the approval card right below shows the same call in full. */}
      {summary && item.status !== 'parked' && <code className="tool-summary">{summary}</code>}
      <details className="tool-details">
        <summary>Arguments{item.preview !== null ? ' and result' : ''}</summary>
        <h4>Arguments</h4>
        <pre className="tool-pre">{prettyJson(item.args)}</pre>
        {item.preview !== null && (
          <>
            <h4>Result (first 2,000 characters)</h4>
            <pre className="tool-pre">{item.preview || '(empty)'}</pre>
          </>
        )}
      </details>
      {item.preview !== null && item.status !== 'ok' && item.preview && <p className="tool-error">{item.preview.split('\n')[0]}</p>}
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
