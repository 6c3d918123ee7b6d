/**
 * Hybrid ranking: the BM25F ranking and a vector ranking (cosine between the query's and each tool's
 * embedding) fused by reciprocal rank fusion. Tool vectors are cached by definition hash, so a registry
 * change re-embeds only the tools whose name, description or parameters changed.
 */
import { createHash } from 'node:crypto';
import type { Capability } from '../../core/capabilities/capability.js';
import type { EmbeddingsClient } from './embeddings.js';
import { reciprocalRankFusion } from './fusion.js';
import { lexicalRank } from './lexical.js';

/** How deep each ranking goes into the fusion: deep enough that a tool ranked 30th lexically can surface. */
export const FUSION_DEPTH = 50;
/** Lexical : vector weight and the fusion constant (fusion.ts says how they were chosen). */
export const LEXICAL_WEIGHT = 4;
export const HYBRID_RRF_K = 10;
const CACHE_LIMIT = 20_000;
const BATCH = 64;

export function definitionHash(cap: Capability): string {
  return createHash('sha256').update(`${cap.name}\u0000${cap.description}\u0000${JSON.stringify(cap.parameters ?? {})}`).digest('hex');
}

/** nomic-embed-text is trained with task prefixes; other models take the text as is. */
function prefixes(model: string): { query: string; document: string } {
  return /nomic/i.test(model) ? { query: 'search_query: ', document: 'search_document: ' } : { query: '', document: '' };
}

function toolText(cap: Capability): string {
  const properties = Object.keys((cap.parameters?.properties ?? {}) as Record<string, unknown>);
  return `${cap.name}: ${cap.description}${properties.length ? ` (parameters: ${properties.join(', ')})` : ''}`.slice(0, 2000);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface HybridRanker {
  /** Document numbers of `catalog`, best first, at most `wanted`. */
  rank(catalog: readonly Capability[], query: string, wanted: number, signal?: AbortSignal): Promise<number[]>;
  /** The vector ranking alone (cosine, best first, at most `wanted`): what the fusion takes from the model. */
  vectorRank(catalog: readonly Capability[], query: string, wanted: number, signal?: AbortSignal): Promise<number[]>;
  /** Cached tool vectors (for tests and the bench). */
  readonly cached: number;
}

export function createHybridRanker(client: EmbeddingsClient): HybridRanker {
  const vectors = new Map<string, Float32Array>();
  const { query: queryPrefix, document: documentPrefix } = prefixes(client.model);

  async function toolVectors(catalog: readonly Capability[], signal?: AbortSignal): Promise<Float32Array[]> {
    const hashes = catalog.map(definitionHash);
    const missing = [...new Set(hashes.filter((hash) => !vectors.has(hash)))];
    const byHash = new Map(catalog.map((cap, i) => [hashes[i], cap]));
    for (let start = 0; start < missing.length; start += BATCH) {
      const batch = missing.slice(start, start + BATCH);
      const embedded = await client.embed(batch.map((hash) => documentPrefix + toolText(byHash.get(hash)!)), signal);
      if (vectors.size + batch.length > CACHE_LIMIT) vectors.clear();
      batch.forEach((hash, i) => vectors.set(hash, embedded[i]));
    }
    return hashes.map((hash) => vectors.get(hash)!);
  }

  async function vectorRank(catalog: readonly Capability[], query: string, wanted: number, signal?: AbortSignal): Promise<number[]> {
    const [queryVector] = await client.embed([queryPrefix + query], signal);
    const tools = await toolVectors(catalog, signal);
    return tools
      .map((vector, doc) => ({ doc, score: cosine(queryVector, vector) }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, wanted)
      .map((entry) => entry.doc);
  }

  return {
    get cached() {
      return vectors.size;
    },
    vectorRank,
    async rank(catalog, query, wanted, signal) {
      const semantic = await vectorRank(catalog, query, FUSION_DEPTH, signal);
      const lexical = lexicalRank(catalog, query, FUSION_DEPTH).map((entry) => entry.doc);
      return reciprocalRankFusion([{ docs: lexical, weight: LEXICAL_WEIGHT }, { docs: semantic, weight: 1 }], HYBRID_RRF_K).slice(0, wanted);
    },
  };
}
