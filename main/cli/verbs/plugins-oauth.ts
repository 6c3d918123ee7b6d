/**
 * `fermix plugins auth login|reauthorize NAME`: start the sign-in (daemon or local service), open the
 * URL in the system browser — or, with `--no-browser`, only print it — and wait for the loopback
 * redirect to complete it. The URL goes to stderr so `--json` keeps stdout to one envelope.
 */
import { spawn } from 'node:child_process';
import { UsageError, type CliIo } from '../output.js';

export const OAUTH_CLI_OPTIONS = {
  'no-browser': { type: 'boolean', default: false },
  port: { type: 'string' },
  timeout: { type: 'string' },
  'client-id': { type: 'string' },
} as const;

type Invoke = (method: string, input: Record<string, unknown>, timeoutMs?: number) => Promise<Record<string, unknown>>;

export function requireClientId(value: string | boolean | undefined, provider: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`usage: fermix plugins auth client ${provider} --client-id ID (the client secret is asked for, or piped with --stdin)`);
  return value.trim();
}

/** Also `fermix mcp auth login`'s. */
export function openInBrowser(url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' });
    // No browser opener is not fatal: the URL is printed too.
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Same: the printed URL is the fallback.
  }
}

export async function runOAuthLogin(io: CliIo, name: string, values: Record<string, string | boolean | undefined>, invoke: Invoke, openUrl?: (url: string) => void): Promise<Record<string, unknown>> {
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError('--port is a port number (0–65535; 0 picks a free one)');
  const seconds = values.timeout === undefined ? 300 : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 1800) throw new UsageError('--timeout is in seconds (1–1800)');
  const timeoutMs = Math.round(seconds * 1000);
  const started = await invoke('plugins.oauth_login.start', { name, timeout_ms: timeoutMs, ...(port !== undefined ? { port } : {}) });
  const url = String(started.url);
  if (values['no-browser'] === true) io.err(`Open this URL in a browser to sign in to ${String(started.provider)} for ${name}:\n${url}`);
  else {
    (openUrl ?? openInBrowser)(url);
    io.err(`Opened the ${String(started.provider)} sign-in in your browser. If it did not open, visit:\n${url}`);
  }
  io.err(`Waiting for the browser to come back to ${String(started.redirect_uri)} …`);
  const done = await invoke('plugins.oauth_login.wait', { name, timeout_ms: timeoutMs }, timeoutMs + 10_000);
  return { ...done, provider: started.provider };
}
