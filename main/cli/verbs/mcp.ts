/**
 * `fermix mcp …`: outbound servers (list, tools, restart, logs, add, remove, enable, disable, pins,
 * import) and inbound MCP (serve, list-exposed). Config edits (add, remove, enable, disable, import) are
 * written to config.toml here and then applied to the running daemon (`mcp.reload`); with no daemon up
 * they apply at its next start, and stderr says so. `--json` prints reference §2.18's envelope.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { HomePaths } from '../../config/home.js';
import { loadConfig, updateConfig } from '../../config/config-file.js';
import { FermixError, isFermixError } from '../../core/errors.js';
import { createSecretStore } from '../../secrets/secret-store.js';
import { defaultImportPath, IMPORT_SOURCES, planImport, type ImportSource } from '../../mcp/import.js';
import { callDaemon } from '../control-client.js';
import { openInBrowser } from './plugins-oauth.js';
import { EXIT, UsageError, type CliIo } from '../output.js';

export const MCP_USAGE = 'usage: fermix mcp list|tools NAME|restart NAME|logs NAME [-n N]|add NAME -- CMD ARGS…|add NAME --url URL|remove NAME|enable NAME|disable NAME|pins NAME --accept|--block|auth login NAME [--no-browser] [--port N] [--timeout S]|auth logout NAME|import --from claude-desktop|cursor|vscode [--path FILE] [--dry-run]|serve|list-exposed [--json]';

interface ServerView { name: string; transport: string; remote: boolean; status: string; tool_count: number; last_error: string | null; changed_tools: string[] }

function envelope(io: CliIo, result: unknown): number {
  io.out(JSON.stringify({ schema_version: 1, ok: true, result }));
  return EXIT.ok;
}

function servers(raw: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const mcp = (raw.mcp ??= {}) as Record<string, unknown>;
  return (mcp.servers ??= {}) as Record<string, Record<string, unknown>>;
}

/** Applies a config edit to a running daemon; says on stderr when none is up. */
async function applyToDaemon(io: CliIo, paths: HomePaths): Promise<void> {
  try {
    await callDaemon(paths.socket, 'mcp.reload');
  } catch (error) {
    if (isFermixError(error) && error.code === 'daemon_not_running') io.err('fermix: no daemon is running; the change applies when it starts (`fermix daemon`).');
    else throw error;
  }
}

function unknownServer(name: string): FermixError {
  return new FermixError({ code: 'unknown_mcp_server', message: `No MCP server is named ${name}.`, hint: 'Run `fermix mcp list` to see the configured servers.', data: { name } });
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n');
}

export interface McpVerbDeps {
  /** Opens the sign-in URL (default: the system browser; tests answer it themselves). */
  openUrl?: (url: string) => void;
}

export async function mcpVerb(argv: string[], io: CliIo, paths: HomePaths, deps: McpVerbDeps = {}): Promise<number> {
  const dash = argv.indexOf('--');
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  const { values, positionals } = parseArgs({
    args: dash === -1 ? argv : argv.slice(0, dash),
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      url: { type: 'string' },
      from: { type: 'string' },
      path: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      lines: { type: 'string', short: 'n' },
      accept: { type: 'boolean', default: false },
      block: { type: 'boolean', default: false },
      'no-browser': { type: 'boolean', default: false },
      port: { type: 'string' },
      timeout: { type: 'string' },
    },
  });
  const json = values.json ?? false;
  const [sub, name] = positionals;
  const needName = () => {
    if (!name) throw new UsageError(`fermix mcp ${sub} needs a server name. ${MCP_USAGE}`);
    return name;
  };
  const out = (result: unknown, text: string) => (json ? envelope(io, result) : (io.out(text), EXIT.ok));

  switch (sub) {
    case 'serve':
      return (await import('../../mcp/serve-stdio.js')).serveMcpOverStdio(paths.socket).then(() => EXIT.ok);
    case 'list': {
      const { servers: list } = (await callDaemon(paths.socket, 'mcp.list')) as { servers: ServerView[] };
      if (json) return envelope(io, { servers: list.map(({ name: n, transport, remote, status, tool_count, last_error }) => ({ name: n, transport, remote, status, tool_count, last_error })) });
      if (list.length === 0) return out({}, 'No MCP servers are configured. Add one with `fermix mcp add NAME -- CMD ARGS…`.');
      return out({}, table([['NAME', 'TRANSPORT', 'STATUS', 'TOOLS', 'LAST ERROR'], ...list.map((s) => [s.name, s.remote ? `${s.transport} (remote)` : s.transport, s.changed_tools.length ? `${s.status} (changed: ${s.changed_tools.join(', ')})` : s.status === 'needs_auth' ? `needs_auth (fermix mcp auth login ${s.name})` : s.status, String(s.tool_count), s.last_error ?? ''])]));
    }
    case 'tools': {
      const result = (await callDaemon(paths.socket, 'mcp.tools', { name: needName() })) as { tools: { name: string; upstream: string; policy_class: string; changed: boolean; declined: boolean; differences: string[] }[] };
      return out(result, result.tools.map((tool) => `${tool.name}  (${tool.upstream}, ${tool.policy_class})${tool.changed ? `  CHANGED${tool.declined ? ', blocked' : ''}: ${tool.differences.join('; ')}` : ''}`).join('\n') || 'This server offers no tools (yet).');
    }
    case 'restart': {
      const result = (await callDaemon(paths.socket, 'mcp.restart', { name: needName() })) as { server: ServerView };
      return out(result, `${result.server.name}: ${result.server.status}`);
    }
    case 'logs': {
      const lines = values.lines === undefined ? 100 : Number(values.lines);
      const result = (await callDaemon(paths.socket, 'mcp.logs', { name: needName(), lines })) as { file: string; lines: string[] };
      return out(result, result.lines.join('\n') || `(${result.file} is empty)`);
    }
    case 'pins': {
      if (values.accept === values.block) throw new UsageError('fermix mcp pins NAME needs exactly one of --accept (re-pin the changed definitions) or --block.');
      const result = (await callDaemon(paths.socket, 'mcp.pins_answer', { name: needName(), decision: values.accept ? 'repin' : 'block' })) as { tools: string[] };
      return out(result, result.tools.length ? `${values.accept ? 'Re-pinned' : 'Blocked'}: ${result.tools.join(', ')}` : 'No changed tool definitions were waiting.');
    }
    case 'list-exposed': {
      const result = (await callDaemon(paths.socket, 'mcp.inbound_list')) as { enabled: boolean; trust: string; tools: { name: string; policy_class: string }[] };
      if (json) return envelope(io, result);
      if (!result.enabled) return out(result, 'Inbound MCP is off ([mcp.inbound] enabled = false); nothing is exposed.');
      return out(result, [`Exposed to MCP clients (trust ${result.trust}):`, ...result.tools.map((tool) => `  ${tool.name}  (${tool.policy_class})`)].join('\n'));
    }
    case 'add': {
      const server = needName();
      if ((values.url === undefined) === (command.length === 0)) throw new UsageError('fermix mcp add NAME -- CMD ARGS…, or fermix mcp add NAME --url URL (one of them).');
      updateConfig(paths.config, (raw) => {
        const all = servers(raw);
        if (all[server]) throw new FermixError({ code: 'duplicate_name', message: `An MCP server named ${server} already exists.`, hint: `Remove it first with \`fermix mcp remove ${server}\`, or pick another name.` });
        all[server] = values.url !== undefined ? { url: values.url } : { command: command[0], args: command.slice(1) };
      });
      await applyToDaemon(io, paths);
      return out({ name: server, added: true }, `Added MCP server ${server}.${values.url !== undefined ? ' It is remote: content sent to its tools leaves this machine.' : ''}`);
    }
    case 'remove': {
      const server = needName();
      let found = false;
      updateConfig(paths.config, (raw) => {
        const all = servers(raw);
        found = all[server] !== undefined;
        delete all[server];
      });
      if (!found) throw unknownServer(server);
      await applyToDaemon(io, paths);
      return out({ name: server, removed: true }, `Removed MCP server ${server}.`);
    }
    case 'enable':
    case 'disable': {
      const server = needName();
      updateConfig(paths.config, (raw) => {
        const entry = servers(raw)[server];
        if (!entry) throw unknownServer(server);
        entry.enabled = sub === 'enable';
      });
      await applyToDaemon(io, paths);
      return out({ name: server, enabled: sub === 'enable' }, `${sub === 'enable' ? 'Enabled' : 'Disabled'} MCP server ${server}.`);
    }
    case 'auth':
      return authVerb(io, paths, positionals[1], positionals[2], values, json, deps.openUrl ?? openInBrowser);
    case 'import':
      return importVerb(io, paths, { from: values.from, path: values.path, dryRun: values['dry-run'] ?? false, json });
    default:
      throw new UsageError(sub === undefined ? MCP_USAGE : `unknown mcp verb "${sub}". ${MCP_USAGE}`);
  }
}

async function importVerb(io: CliIo, paths: HomePaths, options: { from?: string; path?: string; dryRun: boolean; json: boolean }): Promise<number> {
  if (!(IMPORT_SOURCES as readonly string[]).includes(options.from ?? '')) throw new UsageError(`--from takes ${IMPORT_SOURCES.join(', ')}`);
  const file = options.path ?? defaultImportPath(options.from as ImportSource);
  if (!existsSync(file)) throw new FermixError({ code: 'not_found', message: `There is no ${options.from} MCP configuration at ${file}.`, hint: 'Point at it with --path FILE.', data: { file } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new FermixError({ code: 'invalid_input', message: `${file} is not valid JSON.`, hint: 'Fix the file, or point at another one with --path FILE.' });
  }
  const { config } = loadConfig(paths.config);
  const plan = planImport(parsed, new Set(Object.keys(config.mcp.servers)));
  if (!options.dryRun) {
    const store = createSecretStore({ kind: config.fermix_core.secret_store, profile: config.fermix_core.profile, fermixHome: paths.home });
    // Secrets first: a config that names a reference the store lacks would fail on start.
    for (const secret of plan.secrets) store.set(secret.name, secret.value);
    if (Object.keys(plan.servers).length > 0) {
      updateConfig(paths.config, (raw) => Object.assign(servers(raw), plan.servers));
      await applyToDaemon(io, paths);
    }
  }
  const result = { file, dry_run: options.dryRun, servers: plan.servers, secrets_moved: plan.secrets.map((secret) => secret.name), skipped: plan.skipped, notes: plan.notes };
  if (options.json) return envelope(io, result);
  const lines = [
    `${options.dryRun ? 'Would import' : 'Imported'} ${Object.keys(plan.servers).length} MCP server(s) from ${file}${Object.keys(plan.servers).length ? `: ${Object.keys(plan.servers).join(', ')}` : ''}.`,
    ...plan.secrets.map((secret) => `  ${options.dryRun ? 'would move' : 'moved'} a secret to the secret store as ${secret.name}`),
    ...plan.skipped.map((skip) => `  skipped ${skip.name}: ${skip.reason}`),
    ...plan.notes.map((note) => `  note: ${note}`),
  ];
  io.out(lines.join('\n'));
  return EXIT.ok;
}

/**
 * `fermix mcp auth login NAME` starts the sign-in in the daemon (which holds the loopback listener and
 * the secret store), opens the URL — or only prints it with --no-browser — and waits until the server
 * has connected with the new tokens. The URL goes to stderr so `--json` keeps stdout to one envelope.
 */
async function authVerb(io: CliIo, paths: HomePaths, action: string | undefined, server: string | undefined, values: Record<string, unknown>, json: boolean, openUrl: (url: string) => void): Promise<number> {
  if ((action !== 'login' && action !== 'logout') || !server) throw new UsageError('usage: fermix mcp auth login NAME [--no-browser] [--port N] [--timeout S] | fermix mcp auth logout NAME');
  const print = (result: unknown, text: string) => (json ? envelope(io, result) : (io.out(text), EXIT.ok));
  if (action === 'logout') {
    const result = (await callDaemon(paths.socket, 'mcp.auth_logout', { name: server })) as { deleted: boolean; revoked_upstream: boolean; server: ServerView };
    return print(result, `${result.deleted ? 'Signed out of' : 'No sign-in was stored for'} ${server}${result.revoked_upstream ? ' (revoked at the server too)' : ''}. Status: ${result.server.status}.`);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError('--port is a port number (0–65535; 0 picks a free one)');
  const seconds = values.timeout === undefined ? 300 : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 1800) throw new UsageError('--timeout is in seconds (1–1800)');
  const timeoutMs = Math.round(seconds * 1000);
  const started = (await callDaemon(paths.socket, 'mcp.auth_login.start', { name: server, timeout_ms: timeoutMs, ...(port !== undefined ? { port } : {}) })) as { url: string; redirect_uri: string };
  if (values['no-browser'] === true) io.err(`Open this URL in a browser to sign in to the MCP server ${server}:\n${started.url}`);
  else {
    openUrl(started.url);
    io.err(`Opened the sign-in for the MCP server ${server} in your browser. If it did not open, visit:\n${started.url}`);
  }
  io.err(`Waiting for the browser to come back to ${started.redirect_uri} …`);
  const done = (await callDaemon(paths.socket, 'mcp.auth_login.wait', { name: server, timeout_ms: timeoutMs }, timeoutMs + 10_000)) as { server: ServerView };
  return print(done, `Signed in to ${server}. Status: ${done.server.status}, ${done.server.tool_count} tools.${done.server.last_error ? ` Last error: ${done.server.last_error}` : ''}`);
}
