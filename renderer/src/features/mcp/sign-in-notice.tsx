/**
 * A `needs_auth` server (Streamable HTTP with `oauth = true`): the one fix is signing in, so the card
 * says that and offers it. Sign in opens the server's authorization page in the browser; the daemon's
 * loopback listener takes the redirect and connects the server, after which the poll shows it Ready.
 */
export function SignInNotice({ server, busy, authUrl, onSignIn }: { server: string; busy: string | undefined; authUrl: string | undefined; onSignIn: () => void }) {
  return (
    <div className="mcp-pins mcp-signin">
      <p className="small">
        <strong>{server} needs you to sign in.</strong> Its tools stay off until you do; the sign-in opens in your browser and the tokens are kept in the secret store.
      </p>
      <div className="actions">
        <button type="button" className="primary" disabled={busy !== undefined} onClick={onSignIn} aria-label={`Sign in to ${server}`}>
          {busy === 'Waiting for the sign-in…' ? busy : 'Sign in'}
        </button>
      </div>
      {authUrl && (
        <p className="small" role="status">
          Finish signing in on the page that opened. <a href={authUrl} target="_blank" rel="noopener noreferrer">Open the sign-in page again</a>
        </p>
      )}
    </div>
  );
}
