/**
 * Every readiness state the plugin ladder can report (main/plugins/readiness/ladder.ts, in its order),
 * plus `disabled`, `error` and the stale-token "Reconnect needed" of reference §2.16: the badge words
 * and the one fix each state has. `action` is what the card's fix button does; `command` is the CLI
 * fallback where the window has no method for it yet (hosted workspaces).
 */
export type FixAction = 'install' | 'enable' | 'recheck' | 'config' | 'secret' | 'reinstall' | 'oauth_client' | 'connect' | 'command' | null;

export interface ReadinessView {
  label: string;
  tone: 'ok' | 'warn' | 'bad' | 'muted';
  fix: string | null;
  action: FixAction;
  command?: (name: string) => string;
  /** For people: what is missing, when the state is not ready. */
  missing: string;
}

export const READINESS: Record<string, ReadinessView> = {
  not_installed: { label: 'Not installed', tone: 'muted', fix: 'Install', action: 'install', missing: 'It is not installed yet.' },
  incompatible: { label: 'Incompatible', tone: 'bad', fix: 'Check again', action: 'recheck', missing: 'This version needs a newer Fermix: update Fermix, then check again.' },
  missing_host_runtime: { label: 'Missing runtime', tone: 'bad', fix: 'Check again', action: 'recheck', missing: 'The program it runs with is not installed on this machine: install it, then check again.' },
  needs_config: { label: 'Needs config', tone: 'warn', fix: 'Configure', action: 'config', missing: 'A required setting is empty.' },
  needs_secret: { label: 'Needs API key', tone: 'warn', fix: 'Add API key', action: 'secret', missing: 'It needs an API key.' },
  needs_workspace: { label: 'Needs workspace', tone: 'warn', fix: 'Choose a workspace', action: 'config', missing: 'Choose the one workspace it may use (Setup → Workspace).' },
  needs_client_config: { label: 'Needs OAuth client', tone: 'warn', fix: 'Set up OAuth client', action: 'oauth_client', missing: 'Its OAuth client (client id and secret) is not set up.' },
  needs_auth: { label: 'Not connected', tone: 'warn', fix: 'Connect', action: 'connect', missing: 'The account is not connected.' },
  reauthorization_required: { label: 'Reauthorize', tone: 'bad', fix: 'Reauthorize', action: 'connect', missing: 'The sign-in was revoked or expired.' },
  reconnect_needed: { label: 'Reconnect needed', tone: 'warn', fix: 'Reconnect', action: 'connect', missing: 'The sign-in has not been used for a long time and may be stale.' },
  ready: { label: 'Ready', tone: 'ok', fix: null, action: null, missing: '' },
  disabled: { label: 'Disabled', tone: 'muted', fix: 'Enable', action: 'enable', missing: 'It is turned off.' },
  error: { label: 'Refused', tone: 'bad', fix: 'Reinstall', action: 'reinstall', missing: 'Fermix refused to load it.' },
  // Hosted plugins' live connection states (daemon memory only), shown instead of a static "Ready".
  connecting: { label: 'Connecting…', tone: 'muted', fix: null, action: null, missing: 'Connecting to the service.' },
  upstream_contract_mismatch: { label: 'Contract changed', tone: 'bad', fix: null, action: null, missing: 'The service changed its tools since this plugin was signed, so none are offered until an updated plugin is installed (fermix plugins upgrade).' },
  token_rejected: { label: 'Token rejected', tone: 'bad', fix: 'Replace token', action: 'secret', missing: 'The service rejected the stored access token.' },
  insufficient_credential_scope: { label: 'Needs write token', tone: 'warn', fix: 'Replace token', action: 'secret', missing: 'The chosen profile needs a write-scoped token.' },
  workspace_unavailable: { label: 'Workspace gone', tone: 'warn', fix: 'Choose a workspace', action: 'config', missing: 'The chosen workspace is no longer reachable with this token.' },
  remote_unreachable: { label: 'Unreachable', tone: 'warn', fix: null, action: null, missing: 'The service could not be reached; disable and enable the plugin to try again.' },
  // Its detail (the card shows it in brackets) names the wait, when it ends and the command to run then.
  remote_busy: { label: 'Busy', tone: 'warn', fix: null, action: null, missing: 'The service asked Fermix to wait before connecting.' },
  remote_security_blocked: { label: 'Blocked', tone: 'bad', fix: 'Replace token', action: 'secret', missing: 'The service refused the token by its policy.' },
  remote_protocol_error: { label: 'Protocol error', tone: 'bad', fix: null, action: null, missing: 'The service broke the MCP protocol; an updated plugin may be needed.' },
};

/** A hosted plugin whose connection is not (yet) up shows its live state; a revoked token is not an OAuth reauthorization. */
export function hostedLiveStatus(state: { status: string; remote?: boolean; live?: string } | undefined): string | undefined {
  if (!state?.remote || state.status !== 'ready' || !state.live || state.live === 'ready') return undefined;
  return state.live === 'reauthorization_required' ? 'token_rejected' : state.live;
}

export function readinessOf(status: string): ReadinessView {
  return READINESS[status] ?? { label: status, tone: 'muted', fix: null, action: null, missing: '' };
}

/** Where the plugin runs decides what the person consents to: a hosted plugin sends content off the machine. */
export function consentLine(entry: { display_name: string; developer_name?: string; rails: string[]; runtime_kind?: string | null }): { text: string; leaves: boolean; hosted: boolean } {
  if (entry.runtime_kind === 'remote_mcp') {
    return { text: `Hosted by ${entry.developer_name ?? entry.display_name}: what the agent sends to its tools leaves this machine and is processed on their servers.`, leaves: true, hosted: true };
  }
  if (entry.runtime_kind === 'local_stdio') {
    return { text: `Runs as a local process on this machine; it reaches ${entry.display_name} only through the calls its tools make.`, leaves: false, hosted: false };
  }
  return { text: `Runs inside Fermix and calls ${entry.display_name}'s API over HTTPS with your credential: what its tools send goes to ${entry.display_name}.`, leaves: true, hosted: false };
}
