/**
 * The cost of one turn against conversation length (issue, item 3): 100, 1,000 and 10,000 stored
 * messages, seeded straight into the on-disk store in one transaction, then real turns through the
 * loop and the real OpenAI client against the scripted model server. With compaction, a model call
 * reads the latest summary and the messages after it, so turn latency and request size should stay
 * flat: the goal is ≤ 1.5× latency growth from 100 to 10,000 messages and a request inside the window.
 * The first turn on a long seeded history pays for the one-time compaction (reported on its own line).
 * Request sizes are counted by the server with gpt-tokenizer (o200k), the same counter it refuses with.
 */
import { metric, median, type Metric } from '../metric.js';
import { startModelServer, type ModelServer, type RecordedRequest } from '../../test/fixtures/model-server/index.js';
import { createHarness, providerConfig, type Harness } from '../../main/agent/test-harness.js';
import { COMPACTION_PROMPT_MARKER } from '../../main/agent/compaction/summarize.js';
import { estimateTokens } from '../../main/agent/compaction/tokens.js';

const WINDOW = 32_000;
const SIZES = [100, 1_000, 10_000];
const MEASURED_TURNS = 15;

const isCompaction = (req: RecordedRequest) => JSON.stringify(req.body?.messages?.[0] ?? '').includes(COMPACTION_PROMPT_MARKER);
const conversationRequests = (server: ModelServer, from: number) => server.requests.slice(from).filter((r) => r.vendor === 'openai' && !isCompaction(r));

/** ~60 tokens a message, like a chatty conversation: 10,000 messages ≈ 600k tokens, far past the window. */
function seed(harness: Harness, conversationId: string, count: number): void {
  harness.agent.store.ensureConversation(conversationId, `bench ${count}`);
  const stamp = new Date().toISOString();
  harness.db.transaction(() => {
    for (let index = 0; index < count; index += 1) {
      const user = index % 2 === 0;
      const text = user
        ? `Question ${index}: what should I pack for day ${index} of the Lisbon trip, and which tram goes to Belém?`
        : `Answer ${index}: bring a light jacket and comfortable shoes; tram 15 runs from Praça da Figueira to Belém every ten minutes.`;
      const data = user ? { role: 'user', text } : { role: 'assistant', text, toolCalls: [] };
      harness.db.run('INSERT INTO messages (conversation_id, role, content, data, created_at, turn_id) VALUES (?, ?, ?, ?, ?, NULL)', [conversationId, data.role, text, JSON.stringify(data), stamp]);
    }
  });
}

async function turn(harness: Harness, conversationId: string, n: number): Promise<number> {
  const started = performance.now();
  const result = await harness.agent.send({ message: `Turn ${n}: one more question about the trip.`, conversation_id: conversationId }).done;
  if (result.status !== 'completed') throw new Error(`bench turn failed: ${JSON.stringify(result.error)}`);
  // The after-reply compaction (if any) runs in the conversation's queue: wait for it, it is part of the turn's cost.
  await harness.agent.wait(result.turn_id);
  return performance.now() - started;
}

export async function run(): Promise<Metric[]> {
  const server = await startModelServer({ contextWindow: WINDOW });
  let summaries = 0;
  server.setScript((req) => (isCompaction(req) ? { text: `Summary ${++summaries}: the person is planning a Lisbon trip (packing, trams to Belém); every question so far was answered.` } : { text: 'Take tram 15 from Praça da Figueira.' }));
  const harness = await createHarness({
    config: `${providerConfig([{ name: 'main', type: 'openai', baseUrl: server.baseUrlOpenAI, primary: true, keyEnv: 'K' }])}context_window = ${WINDOW}\n`,
    capabilities: () => [],
    secrets: { keyring: () => null, env: () => 'k' },
  });
  const metrics: Metric[] = [];
  const latency = new Map<number, number>();
  const estimateRatios: number[] = [];
  try {
    // Warm-up (JIT, SQLite page cache, the SDK's first load) so the first size measured is not the slow one.
    seed(harness, 'bench-warm-up', 100);
    for (let n = 0; n < 10; n += 1) await turn(harness, 'bench-warm-up', n);
    // Sizes are measured round-robin (one turn each per round), so load from other work on the machine
    // falls on all three alike instead of on whichever size happened to run during it.
    const firsts = new Map<number, { ms: number; compactionCalls: number; overflowed: number }>();
    for (const size of SIZES) {
      seed(harness, `bench-${size}`, size);
      const before = server.requests.length;
      const ms = await turn(harness, `bench-${size}`, 0);
      const calls = server.requests.slice(before);
      firsts.set(size, { ms, compactionCalls: calls.filter(isCompaction).length, overflowed: calls.filter((r) => r.overflowed).length });
    }
    // The seeded rows went in as one big write; a real store that grew over months has them checkpointed.
    harness.db.all('PRAGMA wal_checkpoint(TRUNCATE)');
    const times = new Map<number, number[]>(SIZES.map((size) => [size, []]));
    const requests = new Map<number, RecordedRequest[]>(SIZES.map((size) => [size, []]));
    for (let round = 1; round <= MEASURED_TURNS; round += 1) {
      for (const size of SIZES) {
        const from = server.requests.length;
        times.get(size)!.push(await turn(harness, `bench-${size}`, round));
        requests.get(size)!.push(...conversationRequests(server, from));
      }
    }
    for (const size of SIZES) {
      const sent = requests.get(size)!;
      const bytes = sent.map((r) => Buffer.byteLength(r.rawBody));
      const tokens = sent.map((r) => r.contextTokens ?? 0);
      for (const r of sent) {
        const { messages, tools } = r.body as { messages: unknown; tools?: unknown };
        estimateRatios.push(estimateTokens(JSON.stringify({ messages, tools })) / (r.contextTokens ?? 1));
      }
      const first = firsts.get(size)!;
      latency.set(size, median(times.get(size)!));
      metrics.push(metric(`turn latency, ${size} messages (median of ${MEASURED_TURNS})`, median(times.get(size)!), 'ms'));
      metrics.push(metric(`request size, ${size} messages (median)`, median(bytes), 'bytes'));
      metrics.push(metric(`request context, ${size} messages (max)`, Math.max(...tokens), 'tokens', WINDOW, 'lower', 'o200k, as the server counts; goal: inside the window'));
      metrics.push(metric(`first turn on a seeded ${size}-message history`, first.ms, 'ms', undefined, 'lower', `${first.compactionCalls} compaction call(s), one time`));
      metrics.push(metric(`overflow refusals, ${size} messages`, first.overflowed + sent.filter((r) => r.overflowed).length, 'requests', 0));
    }
    const growth = latency.get(10_000)! / latency.get(100)!;
    metrics.push(metric('turn latency growth, 10,000 vs 100 messages', growth, '×', 1.5));
    metrics.push(metric('token estimate ÷ o200k count (median)', median(estimateRatios), '×', undefined, 'lower', `min ${Math.min(...estimateRatios).toFixed(2)}, max ${Math.max(...estimateRatios).toFixed(2)}; chars/3.5`));
  } finally {
    await harness.close();
    await server.close();
  }
  return metrics;
}
