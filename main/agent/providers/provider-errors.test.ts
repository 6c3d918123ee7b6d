// Each way a provider call fails, produced for real (a refused port, a socket closed without an answer,
// a *.invalid host, a self-signed TLS server, the scripted model server's 401/429/cut stream, an
// Ollama-style 404 for a missing model) and read through the real AI SDK client, as the loop does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../test/fixtures/model-server/index.js';
import { aiSdk, loadAiSdk } from '../ai-runtime.js';
import { createLanguageModel } from './language-model.js';
import type { ResolvedProvider } from './provider-config.js';
import { classifyProviderError } from './provider-errors.js';

const servers: { close(): unknown }[] = [];
let modelServer: ModelServer;
let certDir: string;

beforeAll(async () => {
  // As a turn does: the classifier recognises SDK errors only once the SDK is loaded.
  await loadAiSdk();
  modelServer = await startModelServer();
  certDir = mkdtempSync(join(tmpdir(), 'fermix-tls-'));
});
afterAll(async () => {
  for (const server of servers) server.close();
  await modelServer.close();
  rmSync(certDir, { recursive: true, force: true });
});

function provider(baseUrl: string, extra: Partial<ResolvedProvider> = {}): ResolvedProvider {
  return { name: 'local', type: 'openai', baseUrl, model: 'qwen3', primary: true, timeoutMs: 30_000, keySource: 'none', keyLabel: null, ...extra };
}

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** One streamed call, read the way main/agent/loop/model-call.ts reads it. */
async function fail(target: ResolvedProvider, options: { abortAfterMs?: number } = {}) {
  const timeout = new AbortController();
  const timer = options.abortAfterMs ? setTimeout(() => timeout.abort(), options.abortAfterMs) : undefined;
  let failure: unknown;
  let text = '';
  try {
    const result = aiSdk().streamText({ model: createLanguageModel(target, 'k'), prompt: 'hi', maxRetries: 0, abortSignal: timeout.signal, onError: () => {} });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'error') failure ??= part.error;
    }
  } catch (error) {
    failure ??= error;
  } finally {
    clearTimeout(timer);
  }
  if (timeout.signal.aborted) failure ??= new Error('timeout');
  expect(failure, 'the call should have failed').toBeDefined();
  return { text, ...classifyProviderError(failure, target, timeout.signal.aborted) };
}

describe('provider failures are told apart', () => {
  it('a refused port says nothing listens there, and on Ollama’s port the first hint is to start Ollama', async () => {
    const probe = createTcpServer();
    const port = await listen(probe);
    probe.close();
    const refused = await fail(provider(`http://127.0.0.1:${port}/v1`));
    expect(refused.error.code).toBe('provider_refused');
    expect(refused.error.message).toContain(`nothing is listening at 127.0.0.1:${port}`);
    expect(refused.error.message).not.toMatch(/dropped|middle/);
    // The old message repeated the SDK's wrapper and the socket error: ECONNREFUSED once at most.
    expect(`${refused.error.message} ${refused.error.hint}`.match(/ECONNREFUSED/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(refused.error.hint).toMatch(/^Start the model server, or check the base URL/);
    expect(refused).toMatchObject({ transient: true, retrySameProvider: false });
    // 11434 is Ollama's port; nothing listens on it on the build machines.
    const ollama = await fail(provider('http://127.0.0.1:11434/v1'));
    expect(ollama.error.code).toBe('provider_refused');
    expect(ollama.error.hint).toMatch(/^Start Ollama \(`ollama serve`\)/);
  });

  it('a server that closes the socket without answering is not called a dropped answer', async () => {
    const port = await listen(createTcpServer((socket) => socket.once('data', () => socket.destroy())));
    const closed = await fail(provider(`http://127.0.0.1:${port}/v1`));
    expect(closed.error.code).toBe('provider_closed');
    expect(closed.error.message).toContain('closed the connection without answering');
    expect(closed.error.hint).toMatch(/^Check the base URL/);
  });

  it('a host name that does not resolve is a DNS failure pointing at the base URL', async () => {
    const dns = await fail(provider('http://fermix-model.invalid/v1'));
    expect(dns.error.code).toBe('provider_dns');
    expect(dns.error.message).toContain('fermix-model.invalid does not resolve');
    expect(dns.error.hint).toMatch(/^Check the base URL/);
  });

  it('a self-signed certificate is a TLS failure, not an unreachable server', async () => {
    const key = join(certDir, 'key.pem');
    const cert = join(certDir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    const port = await listen(createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_request, response) => response.end('{}')));
    const tls = await fail(provider(`https://127.0.0.1:${port}/v1`));
    expect(tls.error.code).toBe('provider_tls');
    expect(tls.error.message).toContain('self-signed certificate');
    expect(tls.error.hint).toMatch(/^Check the base URL .*http:\/\//);
  });

  it('401 says the key was rejected, 429 is a rate limit, a cut 200 stream is a dropped answer', async () => {
    modelServer.setScript([{ error: 401 }, { error: 429, retryAfter: 2 }, { cutAfterChunks: 4 }]);
    const target = provider(modelServer.baseUrlOpenAI);
    const auth = await fail(target);
    expect(auth.error.code).toBe('provider_auth');
    expect(auth.error.hint).toMatch(/^The key was rejected/);
    const limited = await fail(target);
    expect(limited).toMatchObject({ transient: true, retrySameProvider: true, retryAfterMs: 2000 });
    expect(limited.error.code).toBe('provider_rate_limited');
    const cut = await fail(target);
    expect(cut.text.length).toBeGreaterThan(0);
    expect(cut.error.code).toBe('provider_stream_cut');
    expect(cut.error.message).toContain('dropped in the middle of the answer (other side closed)');
  });

  it('a 404 for a missing model names the model; a 404 for a wrong path says to check the base URL', async () => {
    // Ollama's real answer for a model that was never pulled.
    const port = await listen(createHttpServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'model "qwen3" not found, try pulling it first' }));
    }));
    const missing = await fail(provider(`http://127.0.0.1:${port}/v1`));
    expect(missing.error.code).toBe('provider_model_not_found');
    expect(missing.error.message).toContain('does not have the model "qwen3"');
    expect(missing.error.hint).toContain('ollama pull qwen3');
    const wrongPath = await fail(provider(`${modelServer.url}/nowhere`));
    expect(wrongPath.error.code).toBe('provider_not_found');
    expect(wrongPath.error.hint).toMatch(/^Check the base URL/);
  });

  it('a model that does not answer in time is a timeout naming the limit', async () => {
    modelServer.setScript([{ text: 'slow answer here', chunks: 3, delayMs: 2_000 }]);
    const slow = await fail(provider(modelServer.baseUrlOpenAI, { timeoutMs: 300 }), { abortAfterMs: 300 });
    expect(slow.error.code).toBe('provider_timeout');
    expect(slow.error.message).toContain('(300 ms)');
    expect(slow).toMatchObject({ transient: true, retrySameProvider: false });
  });
});
