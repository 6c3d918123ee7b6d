/**
 * One hosted-MCP session (Streamable HTTP, SDK client) for a plugin_api 3 plugin: initialize, raw
 * discovery checked against the signed contract (contract.ts; ≤10 pages, cursor ≤1 KiB, ≤128 tools,
 * 4 MiB in all), paced calls (pacer.ts), results text only, ≤2 MiB and depth ≤64 (limits.ts). A
 * result that does not parse as a tools/call result, or is too deep, is marked `invalid_result` so
 * the rail can count a broken peer. `notifications/tools/list_changed` is passed to `onToolsChanged`.
 * Errors are classed for the runner: only
 * unreachability (`remote_unreachable`) is retried; a rejected token (`reauthorization_required`),
 * a policy refusal (`remote_security_blocked`), a protocol error or a contract mismatch stop at once.
 */
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../../core/capabilities/index.js';
import { FermixError, isFermixError } from '../../../core/errors.js';
import { FERMIX_VERSION } from '../../../core/version.js';
import type { HttpRailNet } from '../http/interpreter.js';
import { checkContract, type DeclaredTool } from './contract.js';
import { hostedFetch } from './hosted-fetch.js';
import { HOSTED_DEADLINES, HOSTED_LIMITS, protocolError, resultDepthExceeded } from './limits.js';
import { createCallPacer, HOSTED_PACING } from './pacer.js';

export { HOSTED_DEADLINES } from './limits.js';

/**
 * The MCP SDK (client, Streamable HTTP transport, its zod schemas) loads with the first hosted session,
 * not when the daemon starts: evaluating it cost ~10 ms of every start, with or without hosted plugins.
 */
interface HostedSdk {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  StreamableHTTPError: typeof StreamableHTTPError;
  schemas: typeof import('@modelcontextprotocol/sdk/types.js');
}
let sdk: HostedSdk | undefined;
let sdkLoading: Promise<HostedSdk> | undefined;
function loadHostedSdk(): Promise<HostedSdk> {
  sdkLoading ??= Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/streamableHttp.js'), import('@modelcontextprotocol/sdk/types.js')]).then(
    ([client, http, schemas]) => (sdk = { Client: client.Client, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport, StreamableHTTPError: http.StreamableHTTPError, schemas }),
  );
  return sdkLoading;
}
const rawPage = z.object({ tools: z.array(z.object({ name: z.unknown() }).passthrough()), nextCursor: z.string().optional() }).passthrough();

export interface HostedSessionOptions {
  plugin: string;
  url: string;
  token: string;
  declared: readonly DeclaredTool[];
  net: HttpRailNet;
  pacing?: { minGapMs: number; maxQueued: number };
  /** A re-initialized session keeps its predecessor's pacer: the spacing and the queue survive a session expiry. */
  pacer?: ReturnType<typeof createCallPacer>;
  /** The service sent `notifications/tools/list_changed` (on a POST's event stream). */
  onToolsChanged?: () => void;
}

const err = (code: string, message: string, hint: string, data: Record<string, unknown> = {}) => new FermixError({ code, message, hint, data });

/** Maps a transport or SDK failure to the hosted rail's states. */
export function classifyHostedError(plugin: string, error: unknown): FermixError {
  if (isFermixError(error)) {
    // Net.Guard's tags: a refused connection, a reset or a timeout is unreachability (the one retried failure).
    if (error.code === 'network' || error.code === 'timeout') return err('remote_unreachable', `${plugin} could not be reached (${error.message.slice(0, 200)}).`, 'Check the network; Fermix retries on its own.', { plugin });
    if (error.code === 'body_too_large') return err('response_too_large', `${plugin} answered with more than the hosted rail's 4 MiB response cap.`, 'Ask for less (a narrower query).', { plugin });
    return error;
  }
  // Before the SDK has loaded no session exists, so no SDK error can either.
  if (sdk !== undefined && error instanceof sdk.StreamableHTTPError) {
    // The service forgot the session (reference §2.5: handled by re-initializing, hosted-rail.ts).
    if (error.code === 404) return err('remote_session_expired', `${plugin} ended the MCP session.`, 'Fermix opens a new session on its own; call again if it says so.', { plugin });
    if (error.code === 401) return err('reauthorization_required', `${plugin} rejected the stored access token.`, `Store a new one with \`fermix plugins auth set ${plugin}\` (or on the setup Plugins page).`, { plugin });
    if (error.code === 403) return err('remote_security_blocked', `${plugin} refused the request by its policy (HTTP 403).`, `Check the token's permissions, then \`fermix plugins auth set ${plugin}\`.`, { plugin });
    if (error.code !== undefined && error.code >= 500) return err('remote_unreachable', `${plugin} answered HTTP ${error.code}.`, 'Try again later; Fermix retries on its own.', { plugin });
    return err('remote_protocol_error', `${plugin} broke the MCP protocol (${error.message.slice(0, 200)}).`, `Run \`fermix plugins doctor ${plugin}\`; an updated plugin may be needed.`, { plugin });
  }
  const text = error instanceof Error ? `${error.message} ${(error as { code?: string }).code ?? ''}` : String(error);
  if (/ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EAI_AGAIN|timed out|socket hang up|fetch failed/i.test(text)) return err('remote_unreachable', `${plugin} could not be reached (${text.trim().slice(0, 200)}).`, 'Check the network; Fermix retries on its own.', { plugin });
  return err('remote_protocol_error', `${plugin} broke the MCP protocol (${text.slice(0, 200)}).`, `Run \`fermix plugins doctor ${plugin}\`.`, { plugin });
}

/** Text only: images, audio, embedded resources and base64 media are refused, never passed on. */
export function textOnly(plugin: string, tool: string, result: CallToolResult): ToolResult {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text' && !/data:[a-z]+\/[\w.+-]+;base64,/i.test(item.text)) parts.push(item.text);
    else if (item.type === 'resource_link') parts.push(`[resource ${item.uri}]`);
    else throw err('remote_result_refused', `${tool} answered with ${item.type === 'text' ? 'base64 media' : `${item.type} content`}, which the hosted rail does not accept (text only).`, 'Ask for a text answer; media from hosted plugins is not passed on.', { plugin, tool, type: item.type });
  }
  if (result.isError === true) throw err('mcp_tool_error', `${tool} reported an error: ${parts.join(' ').slice(0, 500) || 'no message'}`, 'Check the arguments and try again.', { plugin, tool });
  return { text: parts.join('\n'), data: result.structuredContent };
}

export function createHostedSession(options: HostedSessionOptions) {
  const { plugin } = options;
  const pacer = options.pacer ?? createCallPacer(plugin, options.pacing ?? HOSTED_PACING);
  // Made by connect(), which every other step follows (the rail connects before it discovers or calls).
  let opened: { client: Client; sdk: HostedSdk } | undefined;
  const session = () => {
    if (!opened) throw protocolError(plugin, 'the session was used before it connected');
    return opened;
  };

  return {
    pacer,
    async connect(): Promise<void> {
      const loaded = await loadHostedSdk();
      const client = new loaded.Client({ name: 'fermix-desktop', version: FERMIX_VERSION }, { capabilities: {} });
      client.onerror = () => {};
      client.setNotificationHandler(loaded.schemas.ToolListChangedNotificationSchema, () => options.onToolsChanged?.());
      const transport = new loaded.StreamableHTTPClientTransport(new URL(options.url), { requestInit: { headers: { authorization: `Bearer ${options.token}` } }, fetch: hostedFetch(options.net, { plugin }) });
      opened = { client, sdk: loaded };
      try {
        await client.connect(transport, { timeout: HOSTED_DEADLINES.initializeMs });
      } catch (error) {
        await client.close().catch(() => {});
        const failure = classifyHostedError(plugin, error);
        // A 404 to initialize is no expired session: the endpoint is wrong.
        if (failure.code === 'remote_session_expired') throw err('remote_protocol_error', `${plugin} answered initialize with HTTP 404.`, `Run \`fermix plugins doctor ${plugin}\`; an updated plugin may be needed.`, { plugin });
        throw failure;
      }
    },
    /** Discovery checked against the contract: the declared definitions, or a thrown mismatch. */
    async discover() {
      const { client, sdk: loaded } = session();
      const items: { name?: unknown }[] = [];
      let cursor: string | undefined;
      let bytes = 0;
      for (let page = 0; ; page += 1) {
        if (page >= HOSTED_LIMITS.discoveryPages) throw protocolError(plugin, `more than ${HOSTED_LIMITS.discoveryPages} pages of tools`);
        let result: z.infer<typeof rawPage>;
        try {
          result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, rawPage, { timeout: HOSTED_DEADLINES.discoverPageMs });
        } catch (error) {
          throw classifyHostedError(plugin, error);
        }
        items.push(...result.tools);
        bytes += Buffer.byteLength(JSON.stringify(result));
        if (bytes > HOSTED_LIMITS.discoveryBytes) throw protocolError(plugin, `its tool list is over ${HOSTED_LIMITS.discoveryBytes} bytes`);
        if (items.length > HOSTED_LIMITS.discoveryTools) throw protocolError(plugin, `more than ${HOSTED_LIMITS.discoveryTools} tools offered`);
        cursor = result.nextCursor;
        if (cursor !== undefined && Buffer.byteLength(cursor) > HOSTED_LIMITS.discoveryCursorBytes) throw protocolError(plugin, `a discovery cursor over ${HOSTED_LIMITS.discoveryCursorBytes} bytes`);
        if (cursor === undefined) break;
      }
      return checkContract(plugin, options.declared, items, loaded.schemas.ToolSchema);
    },
    async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
      const { client, sdk: loaded } = session();
      // The 60 s call deadline includes the wait in the queue.
      const deadline = AbortSignal.timeout(HOSTED_DEADLINES.callMs);
      const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
      return pacer.run(async () => {
        let raw: unknown;
        try {
          // Parsed here, not by the SDK, so an invalid result is told apart from a transport failure.
          raw = await client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, z.unknown(), { signal: combined, timeout: HOSTED_DEADLINES.callMs });
        } catch (error) {
          const failure = classifyHostedError(plugin, error);
          if (failure.code === 'remote_busy' && typeof failure.data?.retry_after_ms === 'number') pacer.holdOff(failure.data.retry_after_ms);
          throw failure;
        }
        const bytes = Buffer.byteLength(JSON.stringify(raw) ?? '');
        if (bytes > HOSTED_LIMITS.resultBytes) throw err('response_too_large', `${plugin} answered ${tool} with ${bytes} bytes, more than the ${HOSTED_LIMITS.resultBytes}-byte cap.`, 'Ask for less (a narrower query).', { plugin, bytes });
        const depth = resultDepthExceeded(raw);
        if (depth !== null) throw protocolError(plugin, `the result of ${tool} is ${depth} levels deep (at most ${HOSTED_LIMITS.resultDepth})`, { tool, invalid_result: true });
        const parsed = loaded.schemas.CallToolResultSchema.safeParse(raw);
        if (!parsed.success) throw protocolError(plugin, `the result of ${tool} is not a valid tools/call result`, { tool, invalid_result: true });
        return textOnly(plugin, tool, parsed.data as CallToolResult);
      }, combined);
    },
    /** Teardown is bounded: a service that hangs on close is left after 10 s. */
    async close(): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      if (!opened) return;
      await Promise.race([opened.client.close().catch(() => {}), new Promise<void>((resolve) => { timer = setTimeout(resolve, HOSTED_DEADLINES.teardownMs); })]);
      clearTimeout(timer);
    },
  };
}
export type HostedSession = ReturnType<typeof createHostedSession>;
