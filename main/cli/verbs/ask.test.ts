// `fermix ask` and `fermix providers` against a real control socket served by the real dispatcher with
// the chat handlers, the agent service and the scripted model server (real HTTP, real SDK client).
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lastMessageIsToolResult, messagesOf, startModelServer, toolRoundTrip, toolResultsOf, type ModelServer } from '../../../test/fixtures/model-server/index.js';
import { openaiStreamEvents } from '../../../test/fixtures/model-server/openai-wire.js';
import { planTurn } from '../../../test/fixtures/model-server/plan.js';
import type { Capability } from '../../core/capabilities/index.js';
import { followDaemon } from '../control-client.js';
import { createDispatcher } from '../../api/dispatcher.js';
import { loadConfig } from '../../config/config-file.js';
import { homePaths } from '../../config/home.js';
import { createControlSocket } from '../../daemon/control-socket.js';
import { createChatHandlers } from '../../agent/chat-handlers.js';
import { createHarness, providerConfig, testTool, type Harness } from '../../agent/test-harness.js';
import { runAsk, runChat, type AskEnvironment } from './ask.js';
import { runProviders, type ProvidersEnvironment } from './providers.js';

let server: ModelServer;
let harness: Harness | undefined;
let socket: ReturnType<typeof createControlSocket> | undefined;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await socket?.close();
  await harness?.close();
  socket = undefined;
  harness = undefined;
});

/** A daemon's worth of API on a fresh home: the chat handlers plus events.replay, over the control socket. */
async function daemonWith(config: string, extraTools: () => Capability[] = () => []) {
  const home = mkdtempSync(join(tmpdir(), 'fermix-ask-'));
  harness = await createHarness({ home, config, capabilities: () => [testTool('read_note', { run: async () => ({ text: 'buy milk' }) }), ...extraTools()], secrets: { keyring: () => null, env: () => 'sk-test' }, overrides: { ollamaOrigin: 'http://127.0.0.1:9' } });
  const h = harness;
  const dispatcher = createDispatcher({
    ...createChatHandlers(h.agent, { events: h.bus }),
    'events.replay': (input) => h.bus.replay(input.stream, input.after_seq),
    'approvals.answer': (input) => {
      h.approvals.answer(input.id, input.answer);
      return { ok: true as const };
    },
  });
  const paths = homePaths(home);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(paths.run, { recursive: true });
  socket = createControlSocket({ path: paths.socket, dispatcher, events: h.bus });
  await socket.listen();
  return { paths, h };
}

function terminal(paths: ReturnType<typeof homePaths>, stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  let written = '';
  const env: AskEnvironment = {
    io: { out: (t) => void out.push(t), err: (t) => void err.push(t) },
    paths,
    cwd: '/tmp/project',
    readStdin: async () => stdin,
    term: { write: (t) => void (written += t), isTTY: false, question: async () => '', onInterrupt: () => () => {} },
  };
  return { env, out, err, written: () => written };
}

describe('fermix ask', () => {
  it('answers through the daemon from a fresh home, streaming, and continues a --session', async () => {
    const { paths, h } = await daemonWith(providerConfig([{ name: 'local', type: 'openai-compatible', baseUrl: server.baseUrlOpenAI, primary: true }]));
    server.setScript(toolRoundTrip([{ name: 'read_note', arguments: {} }], (req) => `Your note: ${toolResultsOf(req)[0].content}`, { usage: { inputTokens: 30, outputTokens: 5 } }));
    const first = terminal(paths);
    expect(await runAsk(['--session', 'work', 'What', 'is', 'on', 'my', 'note?'], first.env)).toBe(0);
    expect(first.written()).toBe('Your note: buy milk\n');
    expect(first.err.join('\n')).toContain('→ read_note');
    expect(first.err.join('\n')).toContain('[local/fermix-test-model · 60 in / 10 out tokens, ~$0.0000]');
    // cli origin, operator trust, the caller's cwd reached the turn.
    expect(h.audit.at(-1)).toMatchObject({ capability: 'read_note', origin: 'cli', trust: 'operator', conversation_id: 'work' });
    expect(h.agent.store.listTurns('work')[0].options).toMatchObject({ cwd: '/tmp/project', origin: 'cli', interactive: false });

    server.setScript((req) => ({ text: `I have seen ${messagesOf(req).filter((m: any) => m.role === 'user').length} messages.` }));
    const second = terminal(paths);
    expect(await runAsk(['--session', 'work', 'and now?'], second.env)).toBe(0);
    expect(second.written()).toBe('I have seen 2 messages.\n');
  });

  it('--json prints one envelope with the answer, usage and cost', async () => {
    const { paths } = await daemonWith(providerConfig([{ name: 'gpt', type: 'openai', baseUrl: server.baseUrlOpenAI, model: 'gpt-4o-mini', primary: true, keyEnv: 'OPENAI_API_KEY' }]));
    server.setScript([{ text: 'Paris.', usage: { inputTokens: 1000, outputTokens: 100 } }]);
    const t = terminal(paths, 'What is the capital of France?');
    expect(await runAsk(['--json', '--stdin'], t.env)).toBe(0);
    const envelope = JSON.parse(t.out[0]);
    expect(envelope).toMatchObject({ ok: true, result: { status: 'completed', text: 'Paris.', provider: 'gpt', model: 'gpt-4o-mini', usage: { input_tokens: 1000, output_tokens: 100 } } });
    // gpt-4o-mini list price: $0.15 / $0.60 per million tokens.
    expect(envelope.result.cost_usd).toBeCloseTo((1000 * 0.15 + 100 * 0.6) / 1e6, 10);
  });

  it('without a provider it fails with exit 1 and the hint that fixes it', async () => {
    const { paths } = await daemonWith('');
    const t = terminal(paths);
    expect(await runAsk(['hello'], t.env)).toBe(1);
    const text = t.err.join('\n');
    expect(text).toContain('No model provider is configured');
    expect(text).toContain('fermix providers add NAME --type openai|anthropic|openai-compatible');
    expect(text).toContain('Settings → Models');
  });

  it('refuses a missing message with the usage line (exit 2)', async () => {
    const { paths } = await daemonWith('');
    const t = terminal(paths);
    expect(await runAsk([], t.env)).toBe(2);
    expect(t.err.join('\n')).toContain('usage: fermix ask');
  });
});

/**
 * An OpenAI-wire server (the fixture's own renderer) that holds the answer's LAST text piece until
 * `release()` is called, and logs what it sent, so a test can order "server sent" against "CLI printed".
 */
async function gatedServer(text: string, pieces: number) {
  const log: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', async () => {
      const rawBody = Buffer.concat(parts).toString('utf8');
      const body = JSON.parse(rawBody);
      const rec = { method: 'POST', path: '/v1/chat/completions', query: '', headers: {}, body, rawBody, vendor: 'openai' as const, aborted: false };
      const events = openaiStreamEvents(planTurn({ text, chunks: pieces }, rec), body);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // events[0] is the role chunk; events[1..pieces] carry the text pieces.
      for (let index = 0; index < events.length; index += 1) {
        if (index === pieces) {
          log.push('server: holding the last piece');
          await released;
          log.push('server: last piece sent');
        }
        await new Promise<void>((resolve) => res.write(events[index], () => resolve()));
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, log, release, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('fermix ask streaming over the control socket', () => {
  it('prints the first tokens before the model has sent its last piece', async () => {
    const model = await gatedServer('one two three four five six', 3);
    try {
      const { paths } = await daemonWith(providerConfig([{ name: 'local', type: 'openai-compatible', baseUrl: model.url, primary: true }]));
      const t = terminal(paths);
      // The last piece is released by the first thing the CLI prints: if nothing reached stdout until
      // the turn ended, the turn could never end (the test would time out), so success proves the order.
      t.env.term.write = (text) => {
        model.log.push(`stdout: ${JSON.stringify(text)}`);
        model.release();
      };
      expect(await runAsk(['count', 'to', 'six'], t.env)).toBe(0);
      const firstPrint = model.log.findIndex((line) => line.startsWith('stdout:'));
      expect(firstPrint).toBeGreaterThan(model.log.indexOf('server: holding the last piece'));
      expect(firstPrint).toBeLessThan(model.log.indexOf('server: last piece sent'));
      const printed = model.log.filter((line) => line.startsWith('stdout:')).map((line) => JSON.parse(line.slice(8))).join('');
      expect(printed).toBe('one two three four five six\n');
      // and the summary line as before
      expect(t.err.join('\n')).toContain('[local/fermix-test-model ·');
    } finally {
      await model.close();
    }
  });

  it('a follower that leaves mid-turn does not stop the turn', async () => {
    const model = await gatedServer('the whole answer arrives anyway', 3);
    try {
      const { paths, h } = await daemonWith(providerConfig([{ name: 'local', type: 'openai-compatible', baseUrl: model.url, primary: true }]));
      const listenersBefore = h.bus.listenerCount();
      const sent = h.agent.send({ message: 'go' });
      const leaving = followDaemon(paths.socket, { stream: sent.conversation_id, after_seq: 0, until_turn: sent.turn_id }, (event) => {
        if (event.type === 'chat.delta') throw new Error('the person closed the terminal');
      }, 10_000);
      await expect(leaving).rejects.toThrow('the person closed the terminal');
      model.release();
      const result = await sent.done;
      expect(result).toMatchObject({ status: 'completed', text: 'the whole answer arrives anyway' });
      // The daemon noticed the closed connection and dropped only that subscription.
      while (h.bus.listenerCount() !== listenersBefore) await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      await model.close();
    }
  });

  it('still asks for the approval the turn waits on at the terminal, then prints the answer and the summary', async () => {
    const { paths, h } = await daemonWith(providerConfig([{ name: 'local', type: 'openai-compatible', baseUrl: server.baseUrlOpenAI, primary: true }]), () => [testTool('write_note', { policy_class: 'read_write', run: async () => ({ text: 'written' }) })]);
    server.setScript((req) => (lastMessageIsToolResult(req) ? { text: `Note: ${toolResultsOf(req)[0].content}` } : { toolCalls: [{ name: 'write_note', arguments: {} }] }));
    const t = terminal(paths);
    const asked: string[] = [];
    t.env.term.isTTY = true;
    t.env.term.question = async (prompt) => {
      asked.push(prompt);
      return 'o';
    };
    expect(await runAsk(['write', 'it'], t.env)).toBe(0);
    expect(t.err.join('\n')).toContain('? write_note needs your approval');
    expect(asked).toEqual(['    allow? [o]nce / [a]lways / [d]eny: ']);
    expect(h.audit.at(-1)).toMatchObject({ capability: 'write_note', approval: 'once' });
    expect(t.written()).toBe('Note: written\n');
    expect(t.err.join('\n')).toContain('[local/fermix-test-model ·');
  });
});

describe('fermix chat', () => {
  it('keeps one conversation across lines, /new starts another, /exit leaves', async () => {
    const { paths, h } = await daemonWith(providerConfig([{ name: 'local', type: 'openai-compatible', baseUrl: server.baseUrlOpenAI, primary: true }]));
    server.setScript((req) => ({ text: `turn with ${messagesOf(req).filter((m: any) => m.role === 'user').length} user message(s)` }));
    const t = terminal(paths);
    const lines = ['hello', 'and again', '/new', 'fresh start', '/exit'];
    t.env.term.question = async () => lines.shift() ?? '/exit';
    expect(await runChat([], t.env)).toBe(0);
    expect(t.written()).toBe('turn with 1 user message(s)\nturn with 2 user message(s)\nturn with 1 user message(s)\n');
    const conversations = new Set(h.db.all<{ conversation_id: string }>('SELECT conversation_id FROM turns').map((r) => r.conversation_id));
    expect(conversations.size).toBe(2);
  });
});

describe('fermix providers', () => {
  function providersEnv(home: string) {
    const out: string[] = [];
    const err: string[] = [];
    const stored: [string, string, string][] = [];
    const env: ProvidersEnvironment = {
      io: { out: (t) => void out.push(t), err: (t) => void err.push(t) },
      paths: homePaths(home),
      readSecret: async () => 'sk-live-0123456789abcdef\n',
      storeSecret: (name, profile, value) => void stored.push([name, profile, value]),
      ollamaOrigin: server.url,
    };
    return { env, out, err, stored };
  }

  it('adds, lists, switches primary, stores a key reference, lists models and removes', async () => {
    const home = mkdtempSync(join(tmpdir(), 'fermix-providers-'));
    const t = providersEnv(home);
    expect(await runProviders(['list'], t.env)).toBe(0);
    expect(t.out.join('\n')).toContain(`A local Ollama answers at ${server.url}/v1 (fermix-test-model)`);

    expect(await runProviders(['add', 'local', '--type', 'openai-compatible', '--model', 'qwen3', '--base-url', server.baseUrlOpenAI], t.env)).toBe(0);
    expect(await runProviders(['add', 'claude', '--type', 'anthropic', '--model', 'claude-sonnet-4-5', '--primary'], t.env)).toBe(0);
    let config = loadConfig(join(home, 'config.toml')).config;
    expect(config.providers.local).toMatchObject({ type: 'openai-compatible', model: 'qwen3', primary: false });
    expect(config.providers.claude.primary).toBe(true);

    expect(await runProviders(['set-key', 'claude', '--stdin'], t.env)).toBe(0);
    expect(t.stored).toEqual([['CLAUDE_API_KEY', 'general', 'sk-live-0123456789abcdef']]);
    config = loadConfig(join(home, 'config.toml')).config;
    expect(config.providers.claude.api_key_ref).toBe('@keyring:CLAUDE_API_KEY');

    expect(await runProviders(['primary', 'local'], t.env)).toBe(0);
    expect(loadConfig(join(home, 'config.toml')).config.providers.local.primary).toBe(true);

    t.out.length = 0;
    expect(await runProviders(['models', 'local', '--json'], t.env)).toBe(0);
    expect(JSON.parse(t.out[0])).toEqual({ schema_version: 1, ok: true, result: { models: ['fermix-test-model'] } });

    expect(await runProviders(['remove', 'claude'], t.env)).toBe(0);
    expect(Object.keys(loadConfig(join(home, 'config.toml')).config.providers)).toEqual(['local']);
    expect(await runProviders(['add', 'bad', '--type', 'gemini', '--model', 'x'], t.env)).toBe(2);
  });
});
