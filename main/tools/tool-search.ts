import { z } from 'zod';
import type { Capability, ExecutionContext, ToolResult } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';

export const toolSearchInput = z.object({
  query: z.string().min(1).describe('What the tool should do, e.g. "create a github issue" or "search notion pages".'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(20)
    .default(5)
    .describe('Maximum matches to return (default 5; values outside 1-20 are clamped).'),
});

export const toolSearchOutput = z.object({
  query: z.string(),
  total_available: z.number().int().describe('Number of deferred tools searched.'),
  matches: z.array(
    z.object({
      name: z.string(),
      plugin: z.string().describe('"mcp" or the owning plugin name.'),
      description: z.string().max(400).describe('Tool description, cut at 400 characters.'),
    }),
  ),
});

export type ToolSearchResult = z.infer<typeof toolSearchOutput>;

/** Reference §2.2 / §6: BM25 with k1 1.5 and b 0.75, limit 5 by default and at most 20, 400-char descriptions. */
export const BM25_K1 = 1.5;
export const BM25_B = 0.75;
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 20;
export const DESCRIPTION_CAP = 400;

/** Lowercased, split on non-alphanumerics (so `github_create_issue` is github, create, issue). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((token) => token.length > 0);
}

interface DocumentStats {
  terms: Map<string, number>;
  length: number;
}

/**
 * Tokenization is memoized per registry entry (entries are frozen and replaced, never mutated).
 */
const statsCache = new WeakMap<Capability, DocumentStats>();

function documentStats(cap: Capability): DocumentStats {
  let stats = statsCache.get(cap);
  if (stats) return stats;
  // Document = name + description + top-level parameter names; schema bodies are not indexed.
  const properties = cap.parameters?.properties;
  const parameterNames = properties && typeof properties === 'object' ? Object.keys(properties as Record<string, unknown>) : [];
  const tokens = [...tokenize(cap.name), ...tokenize(cap.description), ...parameterNames.flatMap(tokenize)];
  const terms = new Map<string, number>();
  for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
  stats = { terms, length: tokens.length };
  statsCache.set(cap, stats);
  return stats;
}

export function ownerOf(cap: Capability): string {
  return typeof cap.metadata.plugin === 'string' && cap.metadata.plugin ? cap.metadata.plugin : 'mcp';
}

function match(cap: Capability): ToolSearchResult['matches'][number] {
  const description = cap.description.length > DESCRIPTION_CAP ? `${cap.description.slice(0, DESCRIPTION_CAP - 1)}…` : cap.description;
  return { name: cap.name, plugin: ownerOf(cap), description };
}

export function clampLimit(limit: unknown): number {
  const value = typeof limit === 'number' && Number.isFinite(limit) ? Math.trunc(limit) : DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, value));
}

interface CatalogIndex {
  norms: Float64Array;
  /** term → documents containing it, with the term's frequency there. */
  postings: Map<string, { doc: number; tf: number }[]>;
  lowerNames: string[];
}

/**
 * Per-catalog postings, memoized on the catalog ARRAY: the agent builds a new array whenever the
 * registry changes, so this can never go stale — it is the same BM25 over the live registry as
 * computing from scratch, minus re-walking 5,000 documents for every query (reference §6 budget).
 */
const indexCache = new WeakMap<readonly Capability[], CatalogIndex>();

function catalogIndex(catalog: readonly Capability[]): CatalogIndex {
  let index = indexCache.get(catalog);
  if (index) return index;
  const docs = catalog.map(documentStats);
  let totalLength = 0;
  for (const doc of docs) totalLength += doc.length;
  const averageLength = docs.length > 0 ? totalLength / docs.length : 1;
  const norms = new Float64Array(docs.length);
  const postings = new Map<string, { doc: number; tf: number }[]>();
  docs.forEach((doc, position) => {
    norms[position] = BM25_K1 * (1 - BM25_B + (BM25_B * doc.length) / (averageLength || 1));
    for (const [term, tf] of doc.terms) {
      const list = postings.get(term);
      if (list) list.push({ doc: position, tf });
      else postings.set(term, [{ doc: position, tf }]);
    }
  });
  index = { norms, postings, lowerNames: catalog.map((cap) => cap.name.toLowerCase()) };
  indexCache.set(catalog, index);
  return index;
}

/** Best first: higher score, then name (stable across runs, so the prompt cache sees the same result). */
function better(catalog: readonly Capability[], a: { doc: number; score: number }, b: { doc: number; score: number }): boolean {
  return a.score > b.score || (a.score === b.score && catalog[a.doc].name < catalog[b.doc].name);
}

/**
 * Ranks `catalog` for `query` with BM25 (k1 1.5, b 0.75; IDF ln((N − df + 0.5)/(df + 0.5) + 1)).
 * Returns matches best first; [] when nothing matches at all.
 */
export function rankTools(catalog: readonly Capability[], query: string, limit = DEFAULT_LIMIT): { matches: ToolSearchResult['matches']; topScore: number } {
  const wanted = clampLimit(limit);
  const count = catalog.length;
  const { norms, postings, lowerNames } = catalogIndex(catalog);
  const scores = new Float64Array(count);
  const touched: number[] = [];
  for (const term of new Set(tokenize(query))) {
    const list = postings.get(term);
    if (!list) continue;
    const idf = Math.log((count - list.length + 0.5) / (list.length + 0.5) + 1);
    for (let i = 0; i < list.length; i += 1) {
      const { doc, tf } = list[i];
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] += (idf * tf * (BM25_K1 + 1)) / (tf + norms[doc]);
    }
  }
  // Top-k by insertion: k ≤ 20, so this beats sorting every scored document.
  const top: { doc: number; score: number }[] = [];
  for (let i = 0; i < touched.length; i += 1) {
    const doc = touched[i];
    const score = scores[doc];
    if (score <= 0) continue;
    if (top.length === wanted && score < top[top.length - 1].score) continue;
    const entry = { doc, score };
    if (top.length === wanted && !better(catalog, entry, top[top.length - 1])) continue;
    let at = top.length;
    while (at > 0 && better(catalog, entry, top[at - 1])) at -= 1;
    top.splice(at, 0, entry);
    if (top.length > wanted) top.pop();
  }
  if (top.length > 0) return { matches: top.map(({ doc }) => match(catalog[doc])), topScore: top[0].score };
  // Nothing scored: the query as a substring of tool names ("create_issue", "gmail").
  const needle = query.trim().toLowerCase();
  const variants = [...new Set([needle, needle.replace(/\s+/g, '_')])].filter((v) => v.length > 0);
  const byName: Capability[] = [];
  for (let doc = 0; doc < count; doc += 1) {
    const name = lowerNames[doc];
    for (const variant of variants) {
      if (name.includes(variant)) {
        byName.push(catalog[doc]);
        break;
      }
    }
  }
  byName.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { matches: byName.slice(0, wanted).map(match), topScore: 0 };
}

/** The deferred catalog this caller may see, handed in by the agent loop (main/agent/request-builder.ts). */
function catalogFrom(context: ExecutionContext): readonly Capability[] {
  const provider = context.services?.deferredTools;
  if (typeof provider !== 'function') {
    throw new FermixError({
      code: 'registry_unavailable',
      message: 'tool_search has no deferred-tool catalog on this path; it searches the tools the agent loop defers.',
      hint: 'Use it from a chat turn, or list tools with `fermix capabilities list`.',
    });
  }
  return (provider as () => readonly Capability[])();
}

export async function searchDeferredTools(args: Record<string, unknown>, context: ExecutionContext): Promise<ToolResult> {
  const query = typeof args.query === 'string' ? args.query.trim() : '';
  if (query === '') {
    throw new FermixError({ code: 'missing_query', message: 'tool_search needs a query.', hint: 'Call tool_search with {"query": "<what the tool should do>"}, e.g. {"query": "create a github issue"}.' });
  }
  const catalog = catalogFrom(context);
  const { matches } = rankTools(catalog, query, clampLimit(args.limit));
  if (matches.length === 0) {
    throw new FermixError({
      code: 'no_matches',
      message: `No deferred tool matches "${query}" (${catalog.length} searched).`,
      hint: 'Try other words (what the tool does, or the service name); the deferred tool names are listed in your prompt under "Deferred tools".',
      data: { query, total_available: catalog.length },
    });
  }
  const result: ToolSearchResult = { query, total_available: catalog.length, matches };
  return { text: JSON.stringify(result), data: result };
}

export const toolSearch = defineBuiltin({
  name: 'tool_search',
  description:
    'Keyword search (BM25) over deferred plugin and MCP tool schemas by name, description and parameter names; returns matching tool names.',
  policy_class: 'read_only',
  category: 'system',
  input: toolSearchInput,
  output: toolSearchOutput,
  when_to_use: 'Find a deferred plugin or MCP tool by what it does when you do not know its name.',
  examples: [
    { args: { query: 'create a github issue' }, note: 'find the issue-creation tool' },
    { args: { query: 'calendar events next week', limit: 10 }, note: 'wider search' },
  ],
  failure_modes: [
    { tag: 'missing_query', description: 'query is absent or blank' },
    { tag: 'no_matches', description: 'nothing matched; try other words' },
  ],
  executor: searchDeferredTools,
  metadata: { deferral_bridge: true },
});
