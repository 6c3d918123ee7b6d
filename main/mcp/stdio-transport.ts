/**
 * The stdio client transport for outbound servers. Ours rather than the SDK's StdioClientTransport
 * because that one spawns the server in our process group: `npx some-server` is npm → sh → node, and
 * killing the pid it knows leaves the real server running. Here the server leads its own group (in the
 * daemon's session when the daemon has no terminal: sandbox/group-spawn.ts), so a close or a quarantine
 * signals the whole tree (sandbox/process-group.ts), and its stderr goes line by line to the server's
 * own log instead of the daemon's terminal.
 * Framing (newline-delimited JSON-RPC) is the SDK's own ReadBuffer/serializeMessage.
 */
import type { ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { spawnInOwnGroup } from '../sandbox/group-spawn.js';
import { groupAlive, signalGroup } from '../sandbox/process-group.js';

export interface StdioLaunch {
  command: string;
  args: string[];
  /** The whole child environment (it replaces the daemon's: see launch.ts). */
  env: Record<string, string>;
  cwd?: string;
  /** One call per stderr line (without the newline). */
  onStderrLine?: (line: string) => void;
  /** SIGTERM → SIGKILL grace on close; default 2 s. */
  killGraceMs?: number;
}

/** 64 KiB of one unterminated stderr line is a server printing binary; it is flushed as is. */
const MAX_STDERR_LINE = 64 * 1024;

// The SDK's framing module pulls in its zod message schemas: loaded with the first server started, not at daemon start-up.
let framing: Promise<typeof import('@modelcontextprotocol/sdk/shared/stdio.js')> | undefined;
/** Loads the framing module ahead of `start()`, so a server's connect deadline does not pay for it. */
export const loadStdioFraming = () => (framing ??= import('@modelcontextprotocol/sdk/shared/stdio.js'));

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcess | undefined;
  private buffer: ReadBuffer | undefined;
  private serializeMessage: ((message: JSONRPCMessage) => string) | undefined;
  private starting = false;
  private closed = false;
  private stderrTail = '';

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async start(): Promise<void> {
    if (this.child || this.starting) throw new Error('GroupStdioTransport already started');
    this.starting = true;
    const sdk = await loadStdioFraming();
    const buffer = (this.buffer = new sdk.ReadBuffer());
    this.serializeMessage = sdk.serializeMessage;
    return new Promise((resolve, reject) => {
      const { child } = spawnInOwnGroup(this.launch.command, this.launch.args, { env: this.launch.env, cwd: this.launch.cwd });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
        this.finish();
      });
      child.once('spawn', () => resolve());
      child.once('close', () => this.finish());
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('error', (error) => this.onerror?.(error));
      child.stderr!.on('error', () => {});
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = buffer.readMessage();
          } catch (error) {
            // A non-JSON line on stdout (a server logging to the wrong stream) is reported, not fatal.
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => this.stderr(chunk.toString('utf8')));
    });
  }

  private stderr(text: string): void {
    const lines = (this.stderrTail + text).split(/\r?\n/);
    this.stderrTail = lines.pop() ?? '';
    if (this.stderrTail.length > MAX_STDERR_LINE) {
      lines.push(this.stderrTail);
      this.stderrTail = '';
    }
    for (const line of lines) if (line !== '') this.launch.onStderrLine?.(line);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.stderrTail !== '') this.launch.onStderrLine?.(this.stderrTail);
    this.stderrTail = '';
    this.buffer?.clear();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed || !this.serializeMessage) return reject(new Error('the MCP server process is not running'));
      if (stdin.write(this.serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends stdin, then SIGTERM to the group, then SIGKILL after the grace: the whole tree goes. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) return this.finish();
    const pgid = child.pid;
    const grace = this.launch.killGraceMs ?? 2_000;
    const exited = child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    // In the first milliseconds the wrapper may not have made its group yet (group-spawn.ts): then the
    // pid alone is signalled, which stops it before it can start the server.
    if (!signalGroup(pgid, 'SIGTERM')) child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
      else if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }, grace);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, grace + 500).unref())]);
    // The leader may be gone while a grandchild that ignored SIGTERM lives on: wait for the SIGKILL.
    if (groupAlive(pgid)) {
      await new Promise((resolve) => setTimeout(resolve, grace + 50).unref());
      if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
    }
    clearTimeout(timer);
    this.finish();
  }
}
