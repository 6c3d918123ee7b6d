import { ErrorNotice } from '../../app/error-notice.js';
import { useConnection } from '../../app/model-context.js';

/** Shown instead of every screen when the daemon refuses this window's session. */
export function UnauthorizedScreen() {
  const error = useConnection((state) => state.error);
  return (
    <section className="screen unauthorized" aria-labelledby="unauthorized-title">
      <h1 id="unauthorized-title">Not authorized — open the URL printed by the daemon</h1>
      <p>
        This window has no valid session with the Fermix daemon. Open the address that <code>fermix daemon</code> or{' '}
        <code>npm start</code> printed: it ends with <code>#token=…</code> and signs this browser in. Run{' '}
        <code>fermix status</code> to see it again.
      </p>
      {error && <ErrorNotice error={error} />}
    </section>
  );
}
