/**
 * One MCP client connection: connect + initialize, discovery (every page), calls with a timeout that
 * progress notifications extend, and `tools/list_changed`. It knows nothing of config, the registry or
 * supervision, so a plugin rail (local or hosted MCP plugins) can drive it with its own transport,
 * caps and naming: give it a transport factory and limits.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../core/capabilities/capability.js';
import type { CancellationView } from '../core/capabilities/runtime.js';
import { FermixError } from '../core/errors.js';
import { FERMIX_VERSION } from '../core/version.js';

export interface McpToolDefinition {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface McpLimits {
  /** Discovery pages (tools/list cursors) before the server is refused. */
  maxPages: number;
  maxTools: number;
  /** Bytes of one call result (JSON), checked after the SDK parsed it. */
  maxResultBytes: number;
}

/** A local process the owner chose to run: generous, but bounded so a broken server cannot flood us. */
export const LOCAL_LIMITS: McpLimits = { maxPages: 100, maxTools: 2_000, maxResultBytes: 16 * 1024 * 1024 };
/** The hosted rail's limits (reference §2.5 "Remote MCP plugins"): content comes from another machine. */
export const REMOTE_LIMITS: McpLimits = { maxPages: 10, maxTools: 128, maxResultBytes: 2 * 1024 * 1024 };

export interface McpConnectionOptions {
  /** A fresh transport per connection (a stdio process, an HTTP session). */
  transport: () => Transport;
  /** For connect+initialize, each tools/list page, and each call (progress resets it). */
  timeoutMs: number;
  limits?: McpLimits;
  /** Used in error messages and hints: "the MCP server github". */
  label: string;
  onToolsChanged?: () => void;
  /** The transport closed without our asking (process exit, network). */
  onClosed?: () => void;
}

export interface McpCallOptions {
  /** An AbortSignal, or the invoke boundary's cheaper cancellation (ExecutionContext.cancellation). */
  signal?: AbortSignal | CancellationView;
  /** Told of a failed call before its caller is (the supervisor notices a sign-in refused mid-session). */
  onError?: (error: unknown) => void;
}

export interface McpConnection {
  connect(): Promise<void>;
  listTools(): Promise<McpToolDefinition[]>;
  callTool(name: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<ToolResult>;
  close(): Promise<void>;
  readonly transport: Transport | undefined;
}

/** A call may be extended by progress, but never past this many timeouts in total. */
export const MAX_PROGRESS_EXTENSIONS = 10;

/** Asking for progress is what lets the server send it (and so extend the call); its content is not used. */
const EXTEND_ON_PROGRESS = (): void => {};

function withDeadline<T>(work: Promise<T>, ms: number, what: string, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FermixError({ code: 'mcp_timeout', message: `${label} did not finish ${what} within ${ms} ms.`, hint: 'Raise `timeout_ms` for it in config.toml, or check `fermix mcp logs NAME`.', data: { timeout_ms: ms } })), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Bytes of JSON framing per text item, and for the result around them (keys, quotes, brackets), rounded up. */
const ITEM_FRAMING_BYTES = 32;
const RESULT_FRAMING_BYTES = 64;

/**
 * An upper bound of the result's JSON size in UTF-8 bytes, for the usual answer (only plain text items),
 * so the cap is checked without serializing the whole result again (the SDK parsed it already); null for
 * anything else, which is measured exactly. A UTF-16 unit takes at most 6 bytes of JSON (`\u001f`).
 */
function textResultBound(result: CallToolResult): number | null {
  let bound = RESULT_FRAMING_BYTES;
  for (const key in result) if (key !== 'content' && key !== 'isError') return null;
  if (!Array.isArray(result.content)) return null;
  for (const item of result.content) {
    if (item.type !== 'text' || typeof item.text !== 'string') return null;
    for (const key in item) if (key !== 'type' && key !== 'text') return null;
    bound += ITEM_FRAMING_BYTES + item.text.length * 6;
  }
  return bound;
}

function contentText(result: CallToolResult): { text: string; images: ToolResult['images'] } {
  const parts: string[] = [];
  const images: NonNullable<ToolResult['images']> = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text') parts.push(item.text);
    else if (item.type === 'image') images.push({ mimeType: item.mimeType, base64: item.data });
    else if (item.type === 'resource') parts.push('text' in item.resource ? String(item.resource.text) : `[resource ${item.resource.uri}]`);
    else if (item.type === 'resource_link') parts.push(`[resource ${item.uri}]`);
    else if (item.type === 'audio') parts.push(`[audio ${item.mimeType}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  return { text: parts.join('\n'), images: images.length > 0 ? images : undefined };
}

export function createMcpConnection(options: McpConnectionOptions): McpConnection {
  const limits = options.limits ?? LOCAL_LIMITS;
  let client: Client | undefined;
  let transport: Transport | undefined;
  let closing = false;

  return {
    get transport() {
      return transport;
    },
    async connect() {
      closing = false;
      // The SDK client (and its zod message schemas) is loaded with the first connection, not at daemon start-up.
      const [{ Client }, { ToolListChangedNotificationSchema }] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
      const next = new Client({ name: 'fermix-desktop', version: FERMIX_VERSION }, { capabilities: {} });
      next.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged?.());
      next.onclose = () => {
        if (!closing) options.onClosed?.();
      };
      // Errors that do not end the connection (a stray stdout line) are noise here; a close is reported above.
      next.onerror = () => {};
      client = next;
      transport = options.transport();
      try {
        await withDeadline(next.connect(transport, { timeout: options.timeoutMs }), options.timeoutMs, 'connecting and initializing', options.label);
      } catch (error) {
        closing = true;
        await next.close().catch(() => {});
        throw error;
      }
    },
    async listTools() {
      if (!client) throw new Error('not connected');
      const tools: McpToolDefinition[] = [];
      let cursor: string | undefined;
      for (let page = 0; ; page += 1) {
        if (page >= limits.maxPages) throw new FermixError({ code: 'mcp_discovery_failed', message: `${options.label} sent more than ${limits.maxPages} pages of tools.`, hint: 'Check the server; `fermix mcp logs NAME` shows its output.' });
        const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: options.timeoutMs });
        for (const tool of result.tools) tools.push(tool as McpToolDefinition);
        if (tools.length > limits.maxTools) throw new FermixError({ code: 'mcp_discovery_failed', message: `${options.label} offers more than ${limits.maxTools} tools.`, hint: 'Point Fermix at a server with fewer tools, or split it.' });
        cursor = result.nextCursor;
        if (cursor === undefined) return tools;
      }
    },
    async callTool(name, args, callOptions = {}) {
      if (!client) throw new FermixError({ code: 'mcp_unavailable', message: `${options.label} is not connected.`, hint: 'Run `fermix mcp list` to see its status.' });
      let result: CallToolResult;
      try {
        result = (await client.callTool({ name, arguments: args }, undefined, {
          timeout: options.timeoutMs,
          resetTimeoutOnProgress: true,
          // Any progress notification extends the call; an endless stream of them still ends.
          maxTotalTimeout: options.timeoutMs * MAX_PROGRESS_EXTENSIONS,
          onprogress: EXTEND_ON_PROGRESS,
          // The SDK (1.32, pinned) only listens to the signal: throwIfAborted, aborted, reason and an 'abort'
          // listener, which a CancellationView offers without an AbortSignal's per-call cost.
          // test/mcp-call-cancel.test.ts proves a cancelled call reaches the server.
          signal: callOptions.signal as AbortSignal | undefined,
        })) as CallToolResult;
      } catch (error) {
        // Here rather than in a .catch() the caller chains: one promise less between the answer and the caller.
        callOptions.onError?.(error);
        throw error;
      }
      const bound = textResultBound(result);
      const bytes = bound !== null && bound <= limits.maxResultBytes ? bound : Buffer.byteLength(JSON.stringify(result));
      if (bytes > limits.maxResultBytes) {
        throw new FermixError({ code: 'response_too_large', message: `${options.label} answered ${name} with ${bytes} bytes, more than the ${limits.maxResultBytes}-byte cap.`, hint: 'Ask for less (a narrower query or range).', data: { bytes, max_bytes: limits.maxResultBytes } });
      }
      const { text, images } = contentText(result);
      if (result.isError === true) {
        throw new FermixError({ code: 'mcp_tool_error', message: `${name} reported an error: ${text.split('\n')[0]?.slice(0, 500) || 'no message'}`, hint: 'Check the arguments and try again.', data: { tool: name } });
      }
      return { text, images, data: result.structuredContent };
    },
    async close() {
      closing = true;
      const current = client;
      client = undefined;
      await current?.close().catch(() => {});
      transport = undefined;
    },
  };
}
