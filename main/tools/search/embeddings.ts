/**
 * Embeddings for tool_search's hybrid mode, from an OpenAI-compatible `/v1/embeddings` endpoint (Ollama,
 * LM Studio, llama.cpp and OpenAI all answer that shape). Off unless the person names a provider in
 * `[fermix_core.tools.tool_search] embeddings`: queries and tool descriptions leave the machine for
 * that provider, so a local one is what the docs offer first. Nothing is ever downloaded here.
 *
 * Network: every request goes through Net.Guard (guardedFetch), which refuses loopback. A provider the
 * operator configured on loopback (Ollama at 127.0.0.1:11434) is the one explicit exception, as the chat
 * providers reach it: exactly that configured origin, POST only, no redirects followed.
 */
import { guardedFetch, type NetPolicy } from '../../net/index.js';
import { FermixError } from '../../core/errors.js';

export interface EmbeddingsClient {
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface EmbeddingsClientOptions {
  /** The provider's base URL, with `/v1` as configured (e.g. http://127.0.0.1:11434/v1). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Net.Guard policy; tests pass createTestPolicy() to reach a fake server through the guard itself. */
  policy?: NetPolicy;
  timeoutMs?: number;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

function failure(message: string): FermixError {
  return new FermixError({ code: 'embeddings_failed', message, hint: 'tool_search falls back to keyword ranking; check [fermix_core.tools.tool_search] embeddings and that the provider serves the embeddings model.' });
}

/** Parses `{data:[{index, embedding}]}` into vectors in input order. */
export function parseEmbeddings(body: unknown, expected: number): Float32Array[] {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data) || data.length !== expected) throw failure(`the embeddings response holds ${Array.isArray(data) ? data.length : 'no'} vectors for ${expected} inputs`);
  const out: Float32Array[] = new Array(expected);
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    if (!Array.isArray(item?.embedding) || !item.embedding.every((v) => typeof v === 'number') || index < 0 || index >= expected) throw failure('the embeddings response has a malformed vector');
    out[index] = Float32Array.from(item.embedding as number[]);
  });
  return out;
}

export function createEmbeddingsClient(options: EmbeddingsClientOptions): EmbeddingsClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const loopback = isLoopbackUrl(url) && options.policy === undefined;
  const timeoutMs = options.timeoutMs ?? 15_000;
  return {
    model: options.model,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const body = JSON.stringify({ model: options.model, input: texts });
      let status: number;
      let text: string;
      if (loopback) {
        const response = await fetch(url, { method: 'POST', headers, body, redirect: 'error', signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]) }).catch((error: unknown) => {
          throw failure(`the local embeddings provider at ${url} did not answer (${error instanceof Error ? error.message : String(error)})`);
        });
        status = response.status;
        text = await response.text();
      } else {
        const response = await guardedFetch(url, { method: 'POST', headers, body, policy: options.policy, signal, receiveTimeoutMs: timeoutMs, maxBytes: 64 * 1024 * 1024 });
        status = response.status;
        text = response.body.toString('utf8');
      }
      if (status < 200 || status >= 300) throw failure(`the embeddings provider answered HTTP ${status}: ${text.slice(0, 200)}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw failure('the embeddings provider did not answer JSON');
      }
      return parseEmbeddings(parsed, texts.length);
    },
  };
}
