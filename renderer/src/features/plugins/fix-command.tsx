/**
 * A fix the window cannot perform yet (OAuth sign-in and clients, hosted workspaces have no plugins.*
 * method in this build): the exact command, so the person is never left without a way forward.
 */
export function FixCommand({ command, what }: { command: string; what: string }) {
  return (
    <div className="fix-command" role="note">
      <p className="small">{what} This window cannot do it yet; in a terminal, run:</p>
      <pre><code>{command}</code></pre>
    </div>
  );
}
