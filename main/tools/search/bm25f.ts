/**
 * BM25F over tool definitions (issue 4 item 4). Each tool is a document of five fields — name words,
 * server name, description, parameter names, parameter descriptions — with their own weight and length
 * normalisation; the weighted, normalised term frequencies are summed before BM25's saturation
 * (k1 1.5, the reference's), and IDF is the reference's ln((N − df + 0.5)/(df + 0.5) + 1).
 * A server-level prior scores the query against each server's whole vocabulary (all its tools as one
 * document) and lifts that server's tools, since "will the build pass" names no tool but fits CI servers.
 * Everything that depends only on the catalog is computed once per catalog array (see index.ts).
 */
import { STEM_PREFIX, terms } from './tokenizer.js';

export const BM25_K1 = 1.5;

export type FieldName = 'name' | 'server' | 'description' | 'paramNames' | 'paramDescriptions';

export interface ToolDocument {
  fields: Record<FieldName, string>;
  /** Which server (or plugin) the tool belongs to; tools of one server share a prior. */
  server: string;
}

/** Measured on bench/data/tool-corpus.json + tool-queries.json only (the held-out set is never tuned on). */
export const FIELD_WEIGHTS: Record<FieldName, number> = { name: 4, server: 4, description: 1.6, paramNames: 0.5, paramDescriptions: 0.3 };
export const FIELD_B: Record<FieldName, number> = { name: 0.5, server: 0.3, description: 0.75, paramNames: 0.5, paramDescriptions: 0.75 };
export const TUNING = {
  /** A stem-only match counts this much of an exact one (the exact form scores its stem too). */
  stemWeight: 0.6,
  /** Weight of the server prior relative to the tool's own best score. */
  serverPrior: 0.5,
};
const FIELDS: FieldName[] = ['name', 'server', 'description', 'paramNames', 'paramDescriptions'];

interface Posting { doc: number; tf: number }

export interface Bm25fIndex {
  size: number;
  postings: Map<string, Posting[]>;
  /** Server-level BM25 (one document per server) and each tool's server number. */
  serverPostings: Map<string, Posting[]>;
  serverCount: number;
  serverOf: Int32Array;
}

function fieldTerms(doc: ToolDocument): Record<FieldName, string[]> {
  const out = {} as Record<FieldName, string[]>;
  for (const field of FIELDS) out[field] = terms(doc.fields[field]);
  return out;
}

export function buildIndex(docs: readonly ToolDocument[]): Bm25fIndex {
  const analysed = docs.map(fieldTerms);
  const average = {} as Record<FieldName, number>;
  for (const field of FIELDS) {
    const total = analysed.reduce((sum, doc) => sum + doc[field].length, 0);
    average[field] = docs.length > 0 && total > 0 ? total / docs.length : 1;
  }
  const postings = new Map<string, Posting[]>();
  const serverNumbers = new Map<string, number>();
  const serverTerms: Map<string, number>[] = [];
  const serverOf = new Int32Array(docs.length);
  analysed.forEach((doc, position) => {
    // Weighted, length-normalised frequency per term, summed over fields (BM25F), then one posting.
    const weighted = new Map<string, number>();
    for (const field of FIELDS) {
      const list = doc[field];
      if (list.length === 0) continue;
      const norm = 1 - FIELD_B[field] + (FIELD_B[field] * list.length) / average[field];
      const weight = FIELD_WEIGHTS[field] / norm;
      for (const term of list) weighted.set(term, (weighted.get(term) ?? 0) + weight);
    }
    for (const [term, tf] of weighted) {
      const list = postings.get(term);
      if (list) list.push({ doc: position, tf });
      else postings.set(term, [{ doc: position, tf }]);
    }
    const server = docs[position].server;
    let number = serverNumbers.get(server);
    if (number === undefined) {
      number = serverTerms.length;
      serverNumbers.set(server, number);
      serverTerms.push(new Map());
    }
    serverOf[position] = number;
    // The server's vocabulary: each distinct term of each tool counts once (so a big server is not a bag of repeats).
    const vocabulary = serverTerms[number];
    for (const term of weighted.keys()) vocabulary.set(term, (vocabulary.get(term) ?? 0) + 1);
  });
  const serverPostings = new Map<string, Posting[]>();
  serverTerms.forEach((vocabulary, number) => {
    for (const [term, count] of vocabulary) {
      // Saturating: a term that appears across most of a server's tools is its vocabulary; log keeps big servers fair.
      const tf = Math.log(1 + count);
      const list = serverPostings.get(term);
      if (list) list.push({ doc: number, tf });
      else serverPostings.set(term, [{ doc: number, tf }]);
    }
  });
  return { size: docs.length, postings, serverPostings, serverCount: serverTerms.length, serverOf };
}

const idf = (count: number, df: number) => Math.log((count - df + 0.5) / (df + 0.5) + 1);

/** Query terms with their weights: exact words 1, stems TUNING.stemWeight; repeats count once. */
export function queryTerms(query: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const term of terms(query)) if (!out.has(term)) out.set(term, term.startsWith(STEM_PREFIX) ? TUNING.stemWeight : 1);
  return out;
}

/**
 * Scores every tool that shares a term with the query. Returns the scores array (0 = unmatched) and
 * the list of touched documents, for top-k selection by the caller.
 */
export function score(index: Bm25fIndex, query: string): { scores: Float64Array; touched: number[] } {
  const scores = new Float64Array(index.size);
  const touched: number[] = [];
  const weights = queryTerms(query);
  for (const [term, weight] of weights) {
    const list = index.postings.get(term);
    if (!list) continue;
    const termIdf = weight * idf(index.size, list.length);
    for (let i = 0; i < list.length; i += 1) {
      const { doc, tf } = list[i];
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] += (termIdf * tf) / (tf + BM25_K1);
    }
  }
  if (touched.length === 0 || TUNING.serverPrior === 0 || index.serverCount < 2) return { scores, touched };
  const prior = new Float64Array(index.serverCount);
  let best = 0;
  for (const [term, weight] of weights) {
    const list = index.serverPostings.get(term);
    if (!list) continue;
    const termIdf = weight * idf(index.serverCount, list.length);
    for (const { doc, tf } of list) {
      prior[doc] += (termIdf * tf) / (tf + BM25_K1);
      if (prior[doc] > best) best = prior[doc];
    }
  }
  if (best === 0) return { scores, touched };
  let top = 0;
  for (const doc of touched) if (scores[doc] > top) top = scores[doc];
  // The prior is scaled to the best tool score, so it re-orders close calls without swamping a clear match.
  const scale = (TUNING.serverPrior * top) / best;
  for (const doc of touched) scores[doc] += scale * prior[index.serverOf[doc]];
  return { scores, touched };
}
