/**
 * Where a local MCP call's time goes, per side: ours (registry + invoke boundary), the plain raw SDK, and
 * the raw SDK with our call options — the three sides of bench/suites/mcp.ts, alternating the same way.
 * Not a benchmark figure (no goal, not in results.json): a diagnostic for whoever works on issue 12's
 * call-path ratio (decision 0020).
 *
 *   npx tsx bench/tools/mcp-phases.ts [calls] [warm-up]
 *
 * Phases, medians in µs: `pre` from the call to the request's write on the server's stdin, `trip` from
 * that write to the answer's first bytes read back (the server's work and both wake-ups), `post` from
 * those bytes to the caller holding the result. Hooks on net.Socket#write and Readable#push only; the
 * code measured is unchanged. Every call writes exactly one request, so the hooks see one of each.
 */
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Cancellation } from '../../main/core/capabilities/runtime.js';
import { createMcpStack, nodeServer, TOOLS_SERVER } from '../../main/mcp/test-stack.js';
import { hasControllingTerminal } from '../../main/sandbox/group-spawn.js';
import { median } from '../metric.js';

const CALLS = Number(process.argv[2] ?? 2000);
const WARMUP = Number(process.argv[3] ?? 1000);

let wroteAt = 0n;
let readAt = 0n;
const socketWrite = Socket.prototype.write;
Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
  wroteAt = process.hrtime.bigint();
  return socketWrite.apply(this, args);
} as Socket['write'];
const readablePush = Readable.prototype.push;
Readable.prototype.push = function (this: Readable, chunk: unknown, encoding?: BufferEncoding) {
  if (chunk !== null) readAt = process.hrtime.bigint();
  return readablePush.call(this, chunk, encoding);
};

const stack = createMcpStack();
const raw = new Client({ name: 'phases-raw', version: '1.0.0' });
const same = new Client({ name: 'phases-same-options', version: '1.0.0' });
try {
  stack.supervisor.apply({ bench: nodeServer(TOOLS_SERVER) });
  await stack.supervisor.settled();
  await raw.connect(new StdioClientTransport({ command: process.execPath, args: [TOOLS_SERVER], stderr: 'ignore' }));
  await same.connect(new StdioClientTransport({ command: process.execPath, args: [TOOLS_SERVER], stderr: 'ignore' }));
  const sides = [
    { name: 'ours', call: (i: number) => stack.invoker.execute('mcp_bench_echo', { text: `call ${i}` }, { trust: 'operator', origin: 'chat' }) },
    { name: 'raw SDK', call: (i: number) => raw.callTool({ name: 'echo', arguments: { text: `call ${i}` } }) },
    {
      name: 'raw SDK + our options',
      call: (i: number) => same.callTool({ name: 'echo', arguments: { text: `call ${i}` } }, undefined, {
        timeout: 10_000, resetTimeoutOnProgress: true, maxTotalTimeout: 100_000, onprogress: () => {}, signal: new Cancellation() as unknown as AbortSignal,
      }),
    },
  ];
  const phases = sides.map(() => ({ pre: [] as number[], trip: [] as number[], post: [] as number[], total: [] as number[] }));
  for (let index = 0; index < WARMUP + CALLS; index += 1) {
    for (let turn = 0; turn < sides.length; turn += 1) {
      const side = (index + turn) % sides.length;
      const started = process.hrtime.bigint();
      await sides[side].call(index);
      const ended = process.hrtime.bigint();
      if (index < WARMUP) continue;
      const us = (from: bigint, to: bigint) => Number(to - from) / 1000;
      phases[side].pre.push(us(started, wroteAt));
      phases[side].trip.push(us(wroteAt, readAt));
      phases[side].post.push(us(readAt, ended));
      phases[side].total.push(us(started, ended));
    }
  }
  console.log(`${CALLS} calls per side after ${WARMUP} warm-up calls; servers ${hasControllingTerminal() ? 'in sessions of their own (this process has a terminal)' : "in the daemon's session"}; medians in µs`);
  for (const [side, { name }] of sides.entries()) {
    const { pre, trip, post, total } = phases[side];
    console.log(`${name.padEnd(22)} pre ${median(pre).toFixed(1).padStart(6)}  trip ${median(trip).toFixed(1).padStart(6)}  post ${median(post).toFixed(1).padStart(6)}  total ${median(total).toFixed(1).padStart(6)}`);
  }
} finally {
  Socket.prototype.write = socketWrite;
  Readable.prototype.push = readablePush;
  await raw.close();
  await same.close();
  await stack.close();
}
