/**
 * The three sides a local MCP call is compared on (bench/suites/mcp.ts measures them, bench/tools/mcp-phases.ts
 * splits their time): ours through the registry and invoke boundary, the plain raw SDK client, and the
 * raw SDK asked for what client.ts asks on every call (progress that extends the timeout, a cancel
 * signal). Each side has its own copy of the same fixture server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Cancellation } from '../../main/core/capabilities/runtime.js';
import { nodeServer, TOOLS_SERVER, type McpStack } from '../../main/mcp/test-stack.js';

export interface CallSides {
  ours(index: number): Promise<unknown>;
  raw(index: number): Promise<unknown>;
  rawWithOurOptions(index: number): Promise<unknown>;
  /** Closes the raw clients (the stack is the caller's). */
  close(): Promise<void>;
}

/** Starts the stack's `bench` server (its echo is `mcp_bench_echo`) and connects the two raw clients. */
export async function startCallSides(stack: McpStack): Promise<CallSides> {
  stack.supervisor.apply({ bench: nodeServer(TOOLS_SERVER) });
  await stack.supervisor.settled();
  const raw = new Client({ name: 'bench', version: '1.0.0' });
  const same = new Client({ name: 'bench-same-options', version: '1.0.0' });
  try {
    await raw.connect(new StdioClientTransport({ command: process.execPath, args: [TOOLS_SERVER], stderr: 'ignore' }));
    await same.connect(new StdioClientTransport({ command: process.execPath, args: [TOOLS_SERVER], stderr: 'ignore' }));
  } catch (error) {
    await raw.close();
    await same.close();
    throw error;
  }
  return {
    ours: (index) => stack.invoker.execute('mcp_bench_echo', { text: `call ${index}` }, { trust: 'operator', origin: 'chat' }),
    raw: (index) => raw.callTool({ name: 'echo', arguments: { text: `call ${index}` } }),
    rawWithOurOptions: (index) => same.callTool({ name: 'echo', arguments: { text: `call ${index}` } }, undefined, {
      timeout: 10_000, resetTimeoutOnProgress: true, maxTotalTimeout: 100_000, onprogress: () => {}, signal: new Cancellation() as unknown as AbortSignal,
    }),
    async close() {
      await raw.close();
      await same.close();
    },
  };
}
