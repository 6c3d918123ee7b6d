import { useEffect, useId } from 'react';
import { ErrorNotice } from '../../app/error-notice.js';
import { useAudit } from '../../app/model-context.js';
import { AuditTable } from './audit-table.js';
import { downloadText } from './download.js';
import { AUDIT_PAGE, type AuditFilters } from './store.js';

const SINCE_OPTIONS: { value: AuditFilters['since']; label: string }[] = [
  { value: 'hour', label: 'Last hour' },
  { value: 'day', label: 'Last 24 hours' },
  { value: 'week', label: 'Last 7 days' },
  { value: 'month', label: 'Last 30 days' },
  { value: 'all', label: 'All time' },
];

/** Every tool call and every denial: who, which rule decided, how long it took; filter and export. */
export function AuditScreen() {
  const filters = useAudit((state) => state.filters);
  const records = useAudit((state) => state.records);
  const capabilities = useAudit((state) => state.capabilities);
  const loading = useAudit((state) => state.loading);
  const exporting = useAudit((state) => state.exporting);
  const error = useAudit((state) => state.error);
  const load = useAudit((state) => state.load);
  const setFilters = useAudit((state) => state.setFilters);
  const exportAs = useAudit((state) => state.exportAs);
  const ids = { capability: useId(), decision: useId(), since: useId(), exportJsonl: useId(), exportCsv: useId() };

  useEffect(() => {
    void load();
  }, [load]);

  const save = async (format: 'jsonl' | 'csv') => {
    const result = await exportAs(format);
    if (!result) return;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    downloadText(`fermix-audit-${stamp}.${format}`, result.content, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
  };

  return (
    <section className="screen audit-screen" aria-labelledby="audit-title">
      <h1 id="audit-title">Audit</h1>
      <p className="muted">Every tool call and every denial, newest first: who asked, which rule or answer decided, and how long it took.</p>
      <form className="audit-filters" aria-label="Filter the audit list" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.capability}>Capability</label>
          <select id={ids.capability} value={filters.capability} onChange={(event) => void setFilters({ capability: event.target.value })}>
            <option value="">All capabilities</option>
            {capabilities.map((name) => <option key={name} value={name}>{name}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.decision}>Decision</label>
          <select id={ids.decision} value={filters.decision ?? 'any'} onChange={(event) => void setFilters({ decision: event.target.value as AuditFilters['decision'] })}>
            <option value="any">Any decision</option>
            <option value="allow">Allowed</option>
            <option value="deny">Denied</option>
            <option value="rejected">Rejected (invalid input)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.since}>Since</label>
          <select id={ids.since} value={filters.since} onChange={(event) => void setFilters({ since: event.target.value as AuditFilters['since'] })}>
            {SINCE_OPTIONS.map((each) => <option key={each.value} value={each.value}>{each.label}</option>)}
          </select>
        </div>
        {/* Each button is named by its visible text alone (WCAG 2.5.3, label in name; short to hear); what it
            exports is its description, read after the name. */}
        <div className="audit-actions">
          <button type="button" onClick={() => void load()} disabled={loading}>{loading ? 'Loading…' : 'Refresh'}</button>
          <button type="button" onClick={() => void save('jsonl')} disabled={exporting} aria-describedby={ids.exportJsonl}>Export JSONL</button>
          <button type="button" onClick={() => void save('csv')} disabled={exporting} aria-describedby={ids.exportCsv}>Export CSV</button>
          <span id={ids.exportJsonl} className="visually-hidden">The filtered records as JSON Lines, one record a line.</span>
          <span id={ids.exportCsv} className="visually-hidden">The filtered records as a CSV spreadsheet.</span>
        </div>
      </form>
      {error && <ErrorNotice error={error} />}
      <p className="muted small" role="status">
        {loading ? 'Loading…' : `${records.length === AUDIT_PAGE ? `The newest ${AUDIT_PAGE}` : records.length} record${records.length === 1 ? '' : 's'}${records.length === AUDIT_PAGE ? ' are shown; export for all of them' : ''}.`}
      </p>
      {records.length > 0 ? <AuditTable records={records} /> : !loading && <p className="empty">No calls or denials match these filters.</p>}
    </section>
  );
}
