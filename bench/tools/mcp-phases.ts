/**
 * Where a local MCP call's time goes, per side: ours (registry + invoke boundary), the plain raw SDK, the
 * raw SDK with our call options and the raw SDK over our transport — the sides of bench/suites/mcp.ts,
 * alternating the same way (one pair of server processes, left to the scheduler: compare sides within a run).
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
import { createMcpStack } from '../../main/mcp/test-stack.js';
import { hasControllingTerminal } from '../../main/sandbox/group-spawn.js';
import { median } from '../metric.js';
import { startCallSides, type CallSides } from '../suites/mcp-sides.js';

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
let callSides: CallSides | undefined;
try {
  callSides = await startCallSides(stack);
  const sides = [
    { name: 'ours', call: callSides.call.ours },
    { name: 'raw SDK', call: callSides.call.raw },
    { name: 'raw SDK + our options', call: callSides.call.rawWithOurOptions },
    { name: 'raw SDK, our transport', call: callSides.call.rawOverOurTransport },
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
  await callSides?.close();
  await stack.close();
}
