import type { McpTool } from './store.js';

/** The tools one server offers: policy class, whether a definition changed, and the hidden switch. */
export function ServerTools({ server, tools, busy, onHidden }: { server: string; tools: McpTool[] | undefined; busy: boolean; onHidden: (tool: string, hidden: boolean) => void }) {
  if (!tools) return <p className="muted small">Loading the tools…</p>;
  if (tools.length === 0) return <p className="muted small">This server offers no tools right now.</p>;
  return (
    <table className="data-table mcp-tools" aria-label={`Tools of ${server}`}>
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">Policy class</th>
          <th scope="col">Shown to the agent</th>
        </tr>
      </thead>
      <tbody>
        {tools.map((tool) => (
          <tr key={tool.upstream}>
            <td>
              <code>{tool.name}</code>
              {tool.changed && <span className="badge plugin-badge-warn">{tool.declined ? 'Blocked' : 'Changed'}</span>}
              {tool.description && <div className="muted small">{tool.description}</div>}
            </td>
            <td><span className="badge">{tool.policy_class}</span></td>
            <td>
              <button
                type="button"
                role="switch"
                className="switch"
                aria-checked={!tool.hidden_from_agent}
                aria-label={`Show ${tool.name} to the agent`}
                disabled={busy}
                onClick={() => onHidden(tool.upstream, !tool.hidden_from_agent)}
              >
                <span className="switch-track" aria-hidden="true"><span className="switch-thumb" /></span>
                {tool.hidden_from_agent ? 'Hidden' : 'Shown'}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
