import { formatBytes, formatDateTime, formatDuration, summarizeArgs } from '../../ui/format.js';
import type { AuditRecord } from './store.js';

function decisionBadge(record: AuditRecord): { text: string; tone: string } {
  if (record.decision === 'allow') return record.error_code ? { text: 'allowed · failed', tone: 'error' } : { text: 'allowed', tone: 'ok' };
  if (record.decision === 'deny') return { text: 'denied', tone: 'error' };
  return { text: record.decision, tone: 'parked' };
}

function decidedBy(record: AuditRecord): string {
  if (record.approval) return `your answer: ${record.approval}`;
  if (record.rule) return record.rule;
  return 'default';
}

export function AuditTable({ records }: { records: AuditRecord[] }) {
  return (
    <div className="table-scroll">
      <table className="data-table audit-table">
        <caption className="visually-hidden">Audit records, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Capability</th>
            <th scope="col">Decision</th>
            <th scope="col">Decided by</th>
            <th scope="col">Who</th>
            <th scope="col">Arguments</th>
            <th scope="col">Duration</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const badge = decisionBadge(record);
            return (
              <tr key={record.id}>
                <td><time dateTime={record.time}>{formatDateTime(record.time)}</time></td>
                <td><code>{record.capability}</code>{record.policy_class && <div className="muted small">{record.policy_class}</div>}</td>
                <td><span className={`badge badge-${badge.tone}`}>{badge.text}</span>{record.error_code && <div className="muted small">{record.error_code}</div>}</td>
                <td className="small">{decidedBy(record)}</td>
                <td className="small">{record.trust} · {record.origin}</td>
                <td className="audit-args"><code title={record.args_mode}>{record.args !== null && record.args !== undefined ? summarizeArgs(record.args, 120) || '—' : `(${record.args_mode})`}</code></td>
                <td className="small">{formatDuration(record.duration_ms)}</td>
                <td className="small">{formatBytes(record.result_bytes)}{record.truncated ? ' (truncated)' : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
