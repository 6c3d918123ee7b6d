import { formatBytes, formatDateTime, formatDuration, summarizeArgs } from '../../ui/format.js';
import type { AuditRecord } from './store.js';

function decisionBadge(record: AuditRecord): { text: string; tone: string } {
  if (record.decision === 'allow') return record.error_code ? { text: 'allowed · failed', tone: 'error' } : { text: 'allowed', tone: 'ok' };
  if (record.decision === 'deny') return { text: 'denied', tone: 'error' };
  return { text: record.decision, tone: 'parked' };
}

/** What a policy class means, in the words the approval cards use; the exact class stays in the tooltip. */
const POLICY_WORDS: Record<string, string> = { read_only: 'reads', read_write: 'changes files', exec: 'runs commands', network: 'uses the network', external_api: 'calls an online service', gui_control: 'controls the screen' };

/** `permission_denied` → "permission denied": the code stays in the tooltip (and in the exports). */
function codeInWords(code: string): string {
  return code.replace(/_/g, ' ');
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
                <td><code>{record.capability}</code>{record.policy_class && <div className="muted small" title={record.policy_class}>{POLICY_WORDS[record.policy_class] ?? record.policy_class}</div>}</td>
                <td><span className={`badge badge-${badge.tone}`}>{badge.text}</span>{record.error_code && <div className="muted small" title={record.error_code}>{codeInWords(record.error_code)}</div>}</td>
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
