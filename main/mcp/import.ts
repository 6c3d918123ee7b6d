/**
 * `fermix mcp import --from claude-desktop|cursor|vscode`: reads their server JSON (`mcpServers`, or
 * VS Code's `servers`) and plans `[mcp.servers.*]` tables. Secret-looking env and header values never
 * reach config.toml: they move to the secret store as `MCP_<SERVER>_<NAME>` and the table holds
 * `@keyring:` references. `${env:NAME}` values become `pass_env` (resolved through [sandbox.env]);
 * VS Code `${input:…}` prompts cannot be imported and are reported.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DENY } from '../sandbox/env.js';
import { SERVER_NAME } from './config.js';

export const IMPORT_SOURCES = ['claude-desktop', 'cursor', 'vscode'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export function defaultImportPath(source: ImportSource, platform = process.platform, home = homedir(), cwd = process.cwd()): string {
  if (source === 'cursor') return join(home, '.cursor', 'mcp.json');
  if (source === 'vscode') return join(cwd, '.vscode', 'mcp.json');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return join(home, '.config', 'Claude', 'claude_desktop_config.json');
}

export interface ImportPlan {
  servers: Record<string, Record<string, unknown>>;
  /** Values to put in the secret store before the config is written. */
  secrets: { name: string; value: string }[];
  skipped: { name: string; reason: string }[];
  notes: string[];
}

/** Long random-looking strings and known token prefixes are secrets whatever their name says. */
const SECRET_VALUE = [/^(sk|pk|rk|ghp|gho|ghs|github_pat|xox[abpr]|glpat|eden_pat)[-_]/i, /^Bearer\s+\S{8,}/i, /^[A-Za-z0-9_\-+/=]{32,}$/];

export function looksSecret(name: string, value: string): boolean {
  return DEFAULT_DENY.some((pattern) => pattern.test(name)) || /^authorization$/i.test(name) || SECRET_VALUE.some((pattern) => pattern.test(value));
}

function secretName(server: string, key: string): string {
  return `MCP_${server}_${key}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_').slice(0, 128);
}

function serverName(raw: string): string {
  const cleaned = raw.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return SERVER_NAME.test(cleaned) ? cleaned : `server_${cleaned}`.slice(0, 64);
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export function planImport(json: unknown, existing: ReadonlySet<string> = new Set()): ImportPlan {
  const plan: ImportPlan = { servers: {}, secrets: [], skipped: [], notes: [] };
  const root = isRecord(json) ? json : {};
  const list = isRecord(root.mcpServers) ? root.mcpServers : isRecord(root.servers) ? root.servers : isRecord(root.mcp) && isRecord(root.mcp.servers) ? root.mcp.servers : null;
  if (list === null) {
    plan.notes.push('no mcpServers (or servers) object was found in the file');
    return plan;
  }
  for (const [rawName, entry] of Object.entries(list)) {
    const name = serverName(rawName);
    if (!isRecord(entry)) {
      plan.skipped.push({ name: rawName, reason: 'the entry is not an object' });
      continue;
    }
    if (existing.has(name) || plan.servers[name]) {
      plan.skipped.push({ name, reason: 'a server with this name is already configured' });
      continue;
    }
    const table: Record<string, unknown> = {};
    const secrets: ImportPlan['secrets'] = [];
    let refused: string | null = null;
    const secretValue = (key: string, value: string): string => {
      if (/\$\{input:/.test(value)) refused = `${key} asks for a VS Code input prompt, which cannot be imported`;
      if (!looksSecret(key, value)) return value;
      const ref = secretName(name, key);
      secrets.push({ name: ref, value });
      return `@keyring:${ref}`;
    };
    if (typeof entry.command === 'string') {
      table.command = entry.command;
      if (Array.isArray(entry.args)) table.args = entry.args.map(String);
      if (typeof entry.cwd === 'string') table.cwd = entry.cwd;
      const env: Record<string, string> = {};
      const passEnv: string[] = [];
      for (const [key, value] of Object.entries(isRecord(entry.env) ? entry.env : {})) {
        const text = String(value);
        const fromEnv = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(text);
        if (fromEnv) passEnv.push(fromEnv[1]);
        else env[key] = secretValue(key, text);
      }
      if (Object.keys(env).length > 0) table.env = env;
      if (passEnv.length > 0) {
        table.pass_env = passEnv;
        plan.notes.push(`${name}: pass_env ${passEnv.join(', ')} reach the server only when \`fermix sandbox env allow NAME\` lists them`);
      }
    } else if (typeof entry.url === 'string') {
      table.url = entry.url;
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(isRecord(entry.headers) ? entry.headers : {})) headers[key] = secretValue(key, String(value));
      if (Object.keys(headers).length > 0) table.headers = headers;
      plan.notes.push(`${name} is a remote server: content sent to its tools leaves this machine`);
    } else {
      plan.skipped.push({ name, reason: 'it has neither a command nor a url' });
      continue;
    }
    if (entry.disabled === true) table.enabled = false;
    if (refused) {
      plan.skipped.push({ name, reason: refused });
      continue;
    }
    plan.servers[name] = table;
    plan.secrets.push(...secrets);
  }
  return plan;
}
