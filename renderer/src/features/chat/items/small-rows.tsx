import { ErrorNotice } from '../../../app/error-notice.js';
import { formatBytes, formatCost, formatTokens } from '../../../ui/format.js';
import { Icon } from '../../../ui/icons.js';
import type { ThreadItem } from '../thread/thread-types.js';

export function AttachmentRow({ item }: { item: Extract<ThreadItem, { kind: 'attachment' }> }) {
  return (
    <section className="card attachment-card" aria-label={`Attachment ${item.filename}`}>
      <span className="attachment-icon"><Icon name={item.fileKind === 'image' ? 'image' : 'file'} size={22} /></span>
      <div>
        <p className="attachment-name">{item.filename}</p>
        <p className="muted small">
          {formatBytes(item.bytes)} · {item.mimeType} · saved in the Fermix home under <code>attachments/</code>
        </p>
        {item.caption && <p className="attachment-caption">{item.caption}</p>}
      </div>
    </section>
  );
}

export function WarningRow({ item }: { item: Extract<ThreadItem, { kind: 'warning' }> }) {
  return (
    <p className="thread-warning" role="note">
      <Icon name="warning" size={14} />{' '}
      {item.message} <span className="muted small">({item.code})</span>
    </p>
  );
}

export function NoticeRow({ item }: { item: Extract<ThreadItem, { kind: 'notice' }> }) {
  if (item.error) return <ErrorNotice error={item.error} />;
  return <p className="thread-notice" role="status">{item.text}</p>;
}

const STATUS_TEXT: Record<string, string> = {
  completed: '',
  partial: 'Partial answer',
  failed: 'Failed',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
};

export function TurnFooter({ item }: { item: Extract<ThreadItem, { kind: 'turn-end' }> }) {
  const label = STATUS_TEXT[item.status];
  return (
    <div className="turn-end">
      {item.error && item.error.code !== 'cancelled' && <ErrorNotice error={item.error} />}
      <p className="turn-meta" aria-label="Turn usage">
        {label && <span className={`badge badge-${item.status}`}>{label}</span>}
        <span>
          {formatTokens(item.usage.input_tokens)} in · {formatTokens(item.usage.output_tokens)} out tokens
        </span>
        <span>{formatCost(item.costUsd)}</span>
        {item.provider && (
          <span>
            {item.provider}
            {item.model ? ` · ${item.model}` : ''}
          </span>
        )}
      </p>
    </div>
  );
}
