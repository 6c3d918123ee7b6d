/**
 * `fermix mcp serve`: Fermix as an MCP server on stdio, for a client that spawns it (Claude Desktop,
 * an editor). It hosts nothing itself: every tools/list and tools/call goes to the running daemon over
 * the control socket (mcp.inbound_list / mcp.inbound_call). The daemon owns the database (locked
 * exclusively), the registry with every executor and the audit trail, so a second copy of them in this
 * process would either fail to open the store or bypass the one invoke boundary. The socket is 0600, so
 * only the owner's own programs can reach it: spawning `fermix mcp serve` is the authentication.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callDaemon } from '../cli/control-client.js';
import { createInboundServer, inboundDisabled, type ExposedTool } from './inbound.js';

/** A long tool call (a build, a search) may take minutes; the daemon's own timeouts apply first. */
const CALL_TIMEOUT_MS = 15 * 60_000;

export async function serveMcpOverStdio(socketPath: string, streams: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream } = { stdin: process.stdin, stdout: process.stdout }): Promise<void> {
  const server = await createInboundServer({
    async list() {
      const listed = (await callDaemon(socketPath, 'mcp.inbound_list')) as { enabled: boolean; tools: ExposedTool[] };
      if (!listed.enabled) throw inboundDisabled();
      return listed.tools;
    },
    call: async (name, args) => (await callDaemon(socketPath, 'mcp.inbound_call', { name, arguments: args }, CALL_TIMEOUT_MS)) as CallToolResult,
  });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport(streams.stdin as never, streams.stdout as never));
  // stdin ending (the client quit) closes the transport.
  streams.stdin.once('end', () => void server.close());
  await closed;
}
