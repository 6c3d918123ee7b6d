/**
 * The doctor's MCP row: every enabled server ready is OK; a quarantined or retrying one is a WARN with
 * its last error and the command that starts it fresh; one waiting for a sign-in names the login verb. Remote (Streamable HTTP) servers are named as
 * such, because content sent to their tools leaves the machine.
 */
import type { DoctorCheck, DoctorResult } from '../daemon/doctor.js';
import type { ServerState } from './supervisor.js';

export function mcpDoctorResult(states: readonly ServerState[]): DoctorResult {
  if (states.length === 0) return { status: 'OK', detail: 'no MCP servers configured', fix: '' };
  const remote = states.filter((state) => state.remote).map((state) => state.name);
  const remoteNote = remote.length > 0 ? `; remote, content leaves this machine: ${remote.join(', ')}` : '';
  const troubled = states.filter((state) => state.status === 'quarantined' || state.status === 'retrying');
  const changed = states.filter((state) => state.changed_tools.length > 0);
  const ready = states.filter((state) => state.status === 'ready').length;
  const enabled = states.filter((state) => state.status !== 'disabled').length;
  const signIn = states.filter((state) => state.status === 'needs_auth');
  if (signIn.length > 0 && troubled.length === 0) {
    return {
      status: 'WARN',
      detail: `waiting for you to sign in: ${signIn.map((state) => state.name).join(', ')}${remoteNote}`,
      fix: `Run \`fermix mcp auth login ${signIn[0].name}\` (or Sign in on its card in Plugins → MCP servers).`,
    };
  }
  if (troubled.length > 0) {
    return {
      status: 'WARN',
      detail: `${troubled.map((state) => `${state.name} ${state.status}: ${state.last_error ?? 'unknown error'}`).join('; ')}${remoteNote}`,
      fix: `Check \`fermix mcp logs ${troubled[0].name}\`, fix the server, then \`fermix mcp restart ${troubled[0].name}\`.`,
    };
  }
  if (changed.length > 0) {
    return { status: 'WARN', detail: `changed tool definitions wait for your answer: ${changed.map((state) => `${state.name} (${state.changed_tools.join(', ')})`).join('; ')}${remoteNote}`, fix: `Review with \`fermix mcp tools ${changed[0].name}\`, then \`fermix mcp pins ${changed[0].name} --accept\` or --block.` };
  }
  return { status: 'OK', detail: `${ready}/${enabled} enabled MCP servers ready${remoteNote}`, fix: '' };
}

export function mcpDoctorCheck(states: () => Promise<readonly ServerState[]> | readonly ServerState[]): DoctorCheck {
  return { id: 'mcp_servers', title: 'MCP servers', run: async () => mcpDoctorResult(await states()) };
}
