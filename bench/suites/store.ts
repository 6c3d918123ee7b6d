/**
 * The store on the real on-disk database (engine issue): invoke-boundary overhead with the audit
 * written to SQLite (read-only and mutating calls), fsyncs per real chat turn against the scripted
 * model server, and migrations on a fresh home. fsyncs are this process's, counted by strace
 * (store-fsync-counter.ts).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capability } from '../../main/core/capabilities/capability.js';
import { createInvoker, createMemoryRuleStore, createPermissionGate, createRegistry } from '../../main/core/capabilities/index.js';
import { openDatabase } from '../../main/store/database.js';
import { createAuditStore } from '../../main/store/audit-store.js';
import { startDaemon } from '../../main/daemon/compose.js';
import { lastMessageIsToolResult, startModelServer } from '../../test/fixtures/model-server/index.js';
import { median, metric, percentile, type Metric } from '../metric.js';
import { countFsyncs, type FsyncCounter } from './store-fsync-counter.js';

function capability(name: string, policy: Capability['policy_class']): Capability {
  return {
    name,
    description: `Benchmark tool ${name}.`,
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    kind: 'builtin',
    executor: async (args: Record<string, unknown>) => ({ text: String(args.q ?? '') }),
    hidden_from_agent: false,
    policy_class: policy,
    metadata: { category: 'file' },
    group: 'fs',
    scope_requirements: [],
    audit_behavior: 'full',
    is_stateful: false,
  };
}

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

async function boundaryOverhead(fsyncs: FsyncCounter): Promise<Metric[]> {
  const dir = tempDir('fermix-bench-store-');
  const db = openDatabase(join(dir, 'fermix.db'), { ownsDaemonLock: true });
  const audit = createAuditStore(db, { retentionDays: 90 });
  const registry = createRegistry();
  registry.register(capability('bench_read', 'read_only'));
  registry.register(capability('bench_write', 'read_write'));
  const invoker = createInvoker({ registry, gate: createPermissionGate({ rules: createMemoryRuleStore(), mode: 'auto' }), audit: audit.sink });
  const controller = new AbortController();
  const out: Metric[] = [];
  for (const [name, label] of [['bench_read', 'read_only'], ['bench_write', 'mutating']] as const) {
    const executor = registry.find(name)!.executor!;
    const overhead: number[] = [];
    const calls = 3000;
    for (let index = 0; index < calls; index += 1) {
      let started = process.hrtime.bigint();
      await executor({ q: 'x' }, { trust: 'operator', origin: 'cli', signal: controller.signal, services: {} });
      const direct = Number(process.hrtime.bigint() - started) / 1e6;
      started = process.hrtime.bigint();
      await invoker.execute(name, { q: 'x' }, { trust: 'operator', origin: 'cli' });
      overhead.push(Number(process.hrtime.bigint() - started) / 1e6 - direct);
    }
    const steady = overhead.slice(300);
    // The same calls again, counted: strace slows every system call while attached, so not while timing.
    await fsyncs.reset();
    for (let index = 0; index < calls; index += 1) await invoker.execute(name, { q: 'x' }, { trust: 'operator', origin: 'cli' });
    const synced = await fsyncs.read();
    const perCall = synced.count / calls;
    out.push(
      metric(`store_invoke_overhead_${label}_p50_ms`, median(steady), 'ms', 0.2, 'lower', 'invoke boundary minus a direct executor call, audit to the on-disk DB'),
      metric(`store_invoke_overhead_${label}_p95_ms`, percentile(steady, 95), 'ms', 1, 'lower', `${calls} calls, first 300 dropped`),
      metric(`store_invoke_fsyncs_per_${label}_call`, perCall, 'fsyncs', label === 'read_only' ? 0 : undefined, 'lower', `${synced.count} in ${calls} calls`),
    );
  }
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return out;
}

async function fsyncsPerTurn(fsyncs: FsyncCounter): Promise<Metric[]> {
  const server = await startModelServer();
  const home = tempDir('fermix-bench-turn-');
  writeFileSync(join(home, 'config.toml'), `[providers.local]\ntype = "openai-compatible"\nbase_url = "${server.baseUrlOpenAI}"\nmodel = "qwen3"\nprimary = true\n`);
  mkdirSync(join(home, 'workspace'), { recursive: true });
  writeFileSync(join(home, 'workspace', 'notes.txt'), 'the notes\n');
  // A typical turn: one read-only tool call, then a streamed answer.
  server.setScript((request) => (lastMessageIsToolResult(request)
    ? { text: 'The notes say: the notes. That is all there is in the file, nothing more to add here.', chunks: 12 }
    : { toolCalls: [{ name: 'file_read', arguments: { path: 'notes.txt' } }] }));
  const daemon = await startDaemon({ home, port: 0 });
  const call = async (method: string, input: unknown) => {
    const response = await fetch(`http://127.0.0.1:${daemon.port}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${daemon.token}` },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { result?: any; error?: unknown };
    if (!body.result) throw new Error(`${method} failed: ${JSON.stringify(body.error ?? body)}`);
    return body.result;
  };
  const turns = 21;
  const perTurn: number[] = [];
  const blocked: number[] = [];
  const durations: number[] = [];
  let conversation: string | undefined;
  for (let index = 0; index < turns; index += 1) {
    await fsyncs.reset();
    const started = performance.now();
    const sent = await call('chat.send', conversation ? { message: `read the notes ${index}`, conversation_id: conversation } : { message: 'read the notes' });
    conversation = sent.conversation_id;
    const done = await call('chat.turn', { turn_id: sent.turn_id, wait: true });
    if (done.status !== 'completed') throw new Error(`bench turn ended ${done.status}: ${JSON.stringify(done.error)}`);
    durations.push(performance.now() - started);
    // Pessimistic: the idle checkpoint that writes this turn back is charged to it, as if the person
    // paused after every turn (back to back, one checkpoint covers many turns).
    daemon.db.checkpoint();
    const synced = await fsyncs.read();
    perTurn.push(synced.count);
    blocked.push(synced.blockedMs);
  }
  await daemon.stop('bench done');
  server.close();
  rmSync(home, { recursive: true, force: true });
  // The first turn after the daemon starts also creates the WAL (the daemon deletes it on close), and native
  // SQLite then syncs the folder once so the new file's entry is durable: a cost of each start, not of each
  // turn. So the per-turn figure is over the turns after it, and the first is reported on its own.
  const [first, ...steady] = perTurn;
  const total = steady.reduce((a, b) => a + b, 0);
  return [
    metric('store_fsyncs_per_chat_turn', total / steady.length, 'fsyncs', 3, 'lower', `mean over ${steady.length} turns after the first (one tool call + streamed answer each), each charged its idle checkpoint; max ${Math.max(...steady)}`),
    metric('store_fsyncs_first_chat_turn_after_start', first, 'fsyncs', undefined, 'lower', 'the same turn right after the daemon started: it also creates the WAL, and SQLite syncs its folder once'),
    metric('store_fsync_blocked_ms_per_chat_turn', blocked.slice(1).reduce((a, b) => a + b, 0) / steady.length, 'ms', undefined, 'lower', `turn median ${median(durations).toFixed(1)} ms with strace attached (it slows every system call)`),
  ];
}

async function migrations(fsyncs: FsyncCounter): Promise<Metric[]> {
  const times: number[] = [];
  const counts: number[] = [];
  for (let index = 0; index < 5; index += 1) {
    const dir = tempDir('fermix-bench-migrate-');
    await fsyncs.reset();
    const started = performance.now();
    const db = openDatabase(join(dir, 'fermix.db'), { ownsDaemonLock: true });
    times.push(performance.now() - started);
    counts.push((await fsyncs.read()).count);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    metric('store_fresh_home_open_and_migrate_ms', median(times), 'ms', undefined, 'lower', 'median of 5, includes loading SQLite'),
    metric('store_fresh_home_migration_fsyncs', median(counts), 'fsyncs', 1, 'lower', 'median of 5 (close not counted)'),
  ];
}

export async function run(): Promise<Metric[]> {
  const fsyncs = await countFsyncs();
  try {
    return [...(await migrations(fsyncs)), ...(await boundaryOverhead(fsyncs)), ...(await fsyncsPerTurn(fsyncs))];
  } finally {
    await fsyncs.stop();
  }
}
