export function AuditScreen() {
  return (
    <section className="screen" aria-labelledby="audit-title">
      <h1 id="audit-title">Audit</h1>
      <p className="placeholder">
        The audit log arrives with the audit store: every tool call and every denial, who asked, which rule
        decided, and how long it took. Until then, <code>fermix logs</code> shows what the daemon did.
      </p>
    </section>
  );
}
