/**
 * The sides a local MCP call is compared on (bench/suites/mcp.ts measures them, bench/tools/mcp-phases.ts
 * splits their time): ours through the registry and invoke boundary, the plain raw SDK client, the raw
 * SDK asked for what client.ts asks on every call (progress that extends the timeout, a cancel signal),
 * and the plain raw SDK client over our stdio transport. Each side has its own copy of the same fixture
 * server, started the same way.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Cancellation } from '../../main/core/capabilities/runtime.js';
import { GroupStdioTransport } from '../../main/mcp/stdio-transport.js';
import { serverConfig, TOOLS_SERVER, type McpStack } from '../../main/mcp/test-stack.js';

export const SIDE_NAMES = ['ours', 'raw', 'rawWithOurOptions', 'rawOverOurTransport'] as const;
export type SideName = (typeof SIDE_NAMES)[number];

export interface CallSides {
  call: Record<SideName, (index: number) => Promise<unknown>>;
  /** The sides whose server was started; calling another fails (not connected, or no such capability). */
  started: readonly SideName[];
  /** Closes the raw clients (the stack is the caller's). */
  close(): Promise<void>;
}

/** How every side's server process is started: the fixture under node, optionally through a wrapper (taskset). */
export interface ServerLaunch {
  command: string;
  args: string[];
}

/** The fixture server as node runs it, optionally with its CPUs fixed by `taskset -c CPUS`. */
export function fixtureLaunch(cpus?: string): ServerLaunch {
  return cpus === undefined
    ? { command: process.execPath, args: [TOOLS_SERVER] }
    : { command: 'taskset', args: ['-c', cpus, process.execPath, TOOLS_SERVER] };
}

/**
 * Starts the servers of the sides in `order`, in that order (a process started earlier or later can
 * land differently with the scheduler, so callers rotate it): for `ours` the stack's `bench` server
 * (its echo is `mcp_bench_echo`), for the others a raw client each. Only the sides started can be called.
 */
export async function startCallSides(stack: McpStack, launch: ServerLaunch = fixtureLaunch(), order: readonly SideName[] = SIDE_NAMES): Promise<CallSides> {
  const raw = new Client({ name: 'bench', version: '1.0.0' });
  const same = new Client({ name: 'bench-same-options', version: '1.0.0' });
  const overOurs = new Client({ name: 'bench-our-transport', version: '1.0.0' });
  const close = async () => {
    await raw.close();
    await same.close();
    await overOurs.close();
  };
  const starters: Record<SideName, () => Promise<void>> = {
    ours: async () => {
      stack.supervisor.apply({ bench: serverConfig({ ...launch, timeout_ms: 10_000 }) });
      await stack.supervisor.settled();
      if (stack.supervisor.get('bench')?.status !== 'ready') throw new Error(`the bench server did not start: ${stack.supervisor.get('bench')?.last_error ?? 'no status'}`);
    },
    raw: () => raw.connect(new StdioClientTransport({ ...launch, stderr: 'ignore' })),
    rawWithOurOptions: () => same.connect(new StdioClientTransport({ ...launch, stderr: 'ignore' })),
    rawOverOurTransport: () => overOurs.connect(new GroupStdioTransport({ ...launch, env: getDefaultEnvironment() })),
  };
  try {
    for (const side of order) await starters[side]();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    call: {
      ours: (index) => stack.invoker.execute('mcp_bench_echo', { text: `call ${index}` }, { trust: 'operator', origin: 'chat' }),
      raw: (index) => raw.callTool({ name: 'echo', arguments: { text: `call ${index}` } }),
      rawWithOurOptions: (index) => same.callTool({ name: 'echo', arguments: { text: `call ${index}` } }, undefined, {
        timeout: 10_000, resetTimeoutOnProgress: true, maxTotalTimeout: 100_000, onprogress: () => {}, signal: new Cancellation() as unknown as AbortSignal,
      }),
      rawOverOurTransport: (index) => overOurs.callTool({ name: 'echo', arguments: { text: `call ${index}` } }),
    },
    started: order,
    close,
  };
}
