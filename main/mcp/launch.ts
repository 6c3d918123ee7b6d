/**
 * Turns one `[mcp.servers.<name>]` table into a transport for one attempt.
 * - stdio: the child environment is the sandbox's (buildChildEnv: minimal base; each `pass_env` name
 *   only when `[sandbox.env] allow` lists it, its value from a helper, the secret store or the daemon's
 *   environment), then the table's `env` (a `@keyring:NAME` value read from the secret store), then PATH.
 *   A daemon launched from a GUI (Electron from the dock) has launchd's/the desktop's bare PATH, where
 *   `npx`/`uvx` are missing, so the login shell's PATH is read once and put in front.
 * - Streamable HTTP: headers with `@keyring:` values resolved, the hosted rail's 4 MiB response cap
 *   enforced while streaming, and OAuth through the SDK's client auth when `oauth = true` (oauth.ts;
 *   the interactive sign-in is oauth-login.ts).
 */
import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FermixError } from '../core/errors.js';
import { buildChildEnv } from '../sandbox/env.js';
import type { SandboxEnvConfig } from '../sandbox/sandbox-config.js';
import { secretRefName, type McpServerConfig } from './config.js';
import { GroupStdioTransport, loadStdioFraming } from './stdio-transport.js';
import { createSecretStoreOAuthProvider, type LoginHooks } from './oauth.js';

/** reference §2.5 hosted rail: response ≤ 4 MiB, enforced while streaming. */
export const REMOTE_RESPONSE_CAP = 4 * 1024 * 1024;

export interface SecretReader {
  get(name: string): string | null;
  set?(name: string, value: string): void;
  /** Deletes an item (OAuth sign-out); true when there was one. */
  clear?(name: string): boolean;
}

export interface LaunchOptions {
  sandboxEnv: () => Pick<SandboxEnvConfig, 'mode' | 'allow' | 'deny' | 'helpers'>;
  daemonEnv: Record<string, string | undefined>;
  secrets: SecretReader;
  /** Directory of the workspace: relative `cwd` values resolve against it. */
  workspace: string;
  /** Resolved login-shell PATH, put before the daemon's (launch from a GUI). */
  loginPath?: () => Promise<string | undefined>;
  onStderrLine: (server: string, line: string) => void;
  onNote?: (server: string, note: string) => void;
}

function needsSecret(server: string, name: string, where: string): FermixError {
  return new FermixError({
    code: 'needs_secret',
    message: `The MCP server ${server} needs the secret ${name} (${where}), and the secret store has none.`,
    hint: `Run \`fermix secrets set ${name}\`, then \`fermix mcp restart ${server}\`.`,
    data: { server, name },
  });
}

function resolveValue(server: string, value: string, secrets: SecretReader, where: string): string {
  const ref = secretRefName(value);
  if (ref === null) return value;
  const found = secrets.get(ref);
  if (found === null || found === undefined) throw needsSecret(server, ref, where);
  return found;
}

/** Reads `$SHELL -ilc 'printf %s "$PATH"'` once (3 s budget); undefined when it cannot. */
export function createLoginPathResolver(shell = process.env.SHELL ?? '/bin/sh', timeoutMs = 3_000): () => Promise<string | undefined> {
  let cached: Promise<string | undefined> | undefined;
  return () => (cached ??= new Promise((resolve) => {
    const marker = '__FERMIX_PATH__';
    const child = spawn(shell, ['-ilc', `printf '${marker}%s${marker}' "$PATH"`], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    let out = '';
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone already
      }
      resolve(undefined);
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on('close', () => {
      clearTimeout(timer);
      const match = new RegExp(`${marker}(.*?)${marker}`, 's').exec(out);
      resolve(match?.[1] || undefined);
    });
  }));
}

export function mergePath(front: string | undefined, back: string | undefined): string {
  const parts = [...(front ?? '').split(':'), ...(back ?? '').split(':')].filter((part) => part !== '');
  return [...new Set(parts)].join(':') || '/usr/local/bin:/usr/bin:/bin';
}

export async function stdioEnvironment(server: string, config: McpServerConfig, options: LaunchOptions): Promise<Record<string, string>> {
  const sandbox = options.sandboxEnv();
  const allowed = config.pass_env.filter((name) => sandbox.allow.includes(name));
  const child = await buildChildEnv({
    // Only this server's pass_env names are resolved, never the whole allow list.
    config: { mode: 'allowlist', allow: allowed, deny: sandbox.deny, helpers: sandbox.helpers },
    daemonEnv: options.daemonEnv,
    keychain: async (name) => options.secrets.get(name) ?? undefined,
    passEnv: config.pass_env,
  });
  for (const note of child.notes) options.onNote?.(server, note);
  const env = { ...child.env };
  for (const [name, value] of Object.entries(config.env)) env[name] = resolveValue(server, value, options.secrets, `env ${name}`);
  if (options.loginPath) env.PATH = mergePath(await options.loginPath(), env.PATH);
  return env;
}

/** fetch whose response bodies stop with an error past `cap` bytes (the SDK reads them as streams). */
export function cappedFetch(cap: number, base: typeof fetch = fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await base(input, init);
    if (!response.body) return response;
    let seen = 0;
    const limited = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > cap) controller.error(new FermixError({ code: 'response_too_large', message: `The MCP server sent more than ${cap} bytes in one response.`, hint: 'Ask for less, or check the server.' }));
        else controller.enqueue(chunk);
      },
    }));
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  }) as typeof fetch;
}

export type TransportOpener = (server: string, config: McpServerConfig, login?: LoginHooks) => Promise<Transport>;

export function createTransportOpener(options: LaunchOptions): TransportOpener {
  return async (server, config, login) => {
    if (config.command !== undefined) {
      const env = await stdioEnvironment(server, config, options);
      await loadStdioFraming();
      let cwd: string | undefined;
      // A missing directory is the attempt's error (spawn ENOENT), shown in `fermix mcp list`.
      if (config.cwd !== undefined) cwd = isAbsolute(config.cwd) ? config.cwd : join(options.workspace, config.cwd);
      return new GroupStdioTransport({ command: config.command, args: config.args, env, cwd, onStderrLine: (line) => options.onStderrLine(server, line) });
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(config.headers)) headers[name] = resolveValue(server, value, options.secrets, `header ${name}`);
    // Loaded with the first remote server, not at daemon start-up.
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(config.url!), {
      requestInit: { headers },
      fetch: cappedFetch(REMOTE_RESPONSE_CAP),
      authProvider: config.oauth ? createSecretStoreOAuthProvider(server, options.secrets, login) : undefined,
    });
  };
}
