// tool_search hybrid mode (issue 4 item 4): BM25F fused with embeddings from an OpenAI-compatible
// /v1/embeddings server — here a real HTTP server on 127.0.0.1 whose "model" maps words to a few
// concept dimensions, so a query that shares no word with a tool can still find it semantically.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability, ExecutionContext } from '../core/capabilities/capability.js';
import { configSchema } from '../config/schema.js';
import { isFermixError } from '../core/errors.js';
import { createTestPolicy } from '../net/test-policy.js';
import { createEmbeddingsClient } from './search/embeddings.js';
import { reciprocalRankFusion } from './search/fusion.js';
import { createToolSearchService } from './search/service.js';
import { searchDeferredTools } from './tool-search.js';

const CONCEPTS: string[][] = [
  ['weather'],
  ['rain', 'umbrella', 'forecast', 'sunny'],
  ['delete', 'remove', 'take', 'down', 'erase'],
  ['message', 'post', 'send', 'say'],
  ['issue', 'bug', 'ticket'],
];

function fakeVector(text: string): number[] {
  const vector = CONCEPTS.map(() => 0.01);
  for (const word of text.toLowerCase().split(/[^a-z]+/)) CONCEPTS.forEach((words, dim) => { if (words.includes(word)) vector[dim] += 1; });
  return vector;
}

let server: Server;
let baseUrl: string;
const received: { inputs: string[]; model: string; auth?: string }[] = [];
let failNext = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url !== '/v1/embeddings' || req.method !== 'POST') return void res.writeHead(404).end();
      if (failNext) return void res.writeHead(500).end('model not loaded');
      const { input, model } = JSON.parse(body) as { input: string[]; model: string };
      received.push({ inputs: input, model, auth: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model, data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) })).reverse() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function cap(name: string, description: string, server: string): Capability {
  return {
    name, description, parameters: { type: 'object', properties: {} }, kind: 'mcp', hidden_from_agent: false, policy_class: 'external_api',
    metadata: { category: 'mcp', mcp_server: server }, group: 'mcp', scope_requirements: [], audit_behavior: 'full', is_stateful: false,
  };
}

const catalog = [
  cap('weather_get_forecast', 'Get the forecast for a location.', 'weather'),
  cap('weather_get_alerts', 'Get active alerts for a state.', 'weather'),
  cap('blog_create_post', 'Publish a new post on the blog.', 'blog'),
  cap('blog_delete_post', 'Remove a post from the blog.', 'blog'),
  cap('blog_list_posts', 'List posts on the blog.', 'blog'),
  cap('tracker_create_issue', 'File a bug.', 'tracker'),
];

const warnings: string[] = [];
function service(settings: { embeddings?: string; embeddings_model?: string }, base = baseUrl, policy?: ReturnType<typeof createTestPolicy>) {
  return createToolSearchService({
    settings: { embeddings_model: 'nomic-embed-text', ...settings },
    providers: { local: { type: 'openai-compatible', base_url: base, api_key_env: 'FAKE_KEY' } },
    secret: (ref) => (ref.env === 'FAKE_KEY' ? 'k-123' : undefined),
    warn: (message) => warnings.push(message),
    policy,
  });
}

const run = async (query: string, toolSearch: unknown, tools = catalog): Promise<string[]> => {
  const context: ExecutionContext = { trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: { deferredTools: () => tools, toolSearch } };
  const result = await searchDeferredTools({ query, limit: 3 }, context).catch((error: unknown) => error);
  if (isFermixError(result)) return [`error:${result.code}`];
  return (result as { data: { matches: { name: string }[] } }).data.matches.map((m) => m.name);
};

describe('tool_search hybrid mode', () => {
  it('finds tools the words alone miss, fusing BM25F and vectors (RRF)', async () => {
    const hybrid = service({ embeddings: 'local' });
    // No word of "will I need an umbrella" is in any tool: lexical finds nothing, the vectors find the forecast.
    expect(await run('will I need an umbrella', { warn: () => {} })).toEqual(['error:no_matches']);
    expect((await run('will I need an umbrella', hybrid))[0]).toBe('weather_get_forecast');
    // "take down the blog post": lexically all three blog tools tie on "blog post"; the action picks delete.
    expect((await run('take down the blog post', hybrid))[0]).toBe('blog_delete_post');
    expect(received.at(-1)!.inputs[0]).toBe('search_query: take down the blog post');
    expect(received[0].model).toBe('nomic-embed-text');
    expect(received[0].auth).toBe('Bearer k-123');
    // The vector ranking alone, as the fusion takes it: the umbrella query's nearest tool is the forecast.
    expect((await hybrid.hybrid!.vectorRank(catalog, 'will I need an umbrella', 2)).map((doc) => catalog[doc].name)[0]).toBe('weather_get_forecast');
  });

  it('caches tool vectors by definition hash: only changed tools are embedded again', async () => {
    const hybrid = service({ embeddings: 'local' });
    received.length = 0;
    await run('forecast', hybrid);
    expect(received.flatMap((r) => r.inputs).filter((t) => t.startsWith('search_document: '))).toHaveLength(catalog.length);
    received.length = 0;
    await run('forecast', hybrid);
    expect(received.flatMap((r) => r.inputs)).toEqual(['search_query: forecast']);
    const changed = catalog.map((c) => (c.name === 'blog_list_posts' ? { ...c, description: 'List every post.' } : c));
    received.length = 0;
    await run('forecast', hybrid, changed);
    expect(received.flatMap((r) => r.inputs).filter((t) => t.startsWith('search_document: '))).toEqual(['search_document: blog_list_posts: List every post.']);
    expect(hybrid.hybrid!.cached).toBe(catalog.length + 1);
  });

  it('falls back to keyword ranking when the provider fails, and says so once', async () => {
    const hybrid = service({ embeddings: 'local' });
    warnings.length = 0;
    failNext = true;
    try {
      expect((await run('forecast location', hybrid))[0]).toBe('weather_get_forecast');
      await run('alerts', hybrid);
    } finally {
      failNext = false;
    }
    expect(warnings).toEqual(['tool_search: the embeddings provider failed; ranking by keywords only']);
  });

  it('goes through Net.Guard: a non-loopback provider is checked by the guard, and the guard itself reaches the fake server with a test policy', async () => {
    const guarded = createEmbeddingsClient({ baseUrl, model: 'm', policy: createTestPolicy() });
    expect(Array.from((await guarded.embed(['rain']))[0])).toEqual([0.01, 1.01, 0.01, 0.01, 0.01].map((v) => Math.fround(v)));
    // 10.0.0.0/8 is private: the guard refuses before any connection (no test policy here).
    const privateHost = createEmbeddingsClient({ baseUrl: 'http://10.1.2.3:11434/v1', model: 'm' });
    await expect(privateHost.embed(['x'])).rejects.toMatchObject({ code: 'blocked_url' });
  });

  it('is off unless configured, and an unknown provider name is a warning, not a crash', () => {
    const parsed = configSchema.parse({});
    expect(parsed.fermix_core.tools.tool_search).toEqual({ enabled: true, embeddings_model: 'nomic-embed-text' });
    expect(service({}).hybrid).toBeUndefined();
    warnings.length = 0;
    expect(service({ embeddings: 'nope' }).hybrid).toBeUndefined();
    expect(warnings[0]).toContain('names provider "nope"');
    expect(() => configSchema.parse({ fermix_core: { tools: { tool_search: { embeddings: 'a b' } } } })).toThrow();
  });

  it('reciprocal rank fusion favours documents ranked well by both lists', () => {
    // 1 and 3 (1/61 + 1/63) edge out 2 (2/62); their tie keeps the first list's order.
    expect(reciprocalRankFusion([[1, 2, 3], [3, 2, 1]])).toEqual([1, 3, 2]);
    expect(reciprocalRankFusion([[5, 6], [7, 6]])[0]).toBe(6);
  });
});
