/**
 * The lexical ranker over a live catalog of capabilities: BM25F fields taken from each definition,
 * the index memoized on the catalog ARRAY (the agent builds a new array whenever the registry changes,
 * so it can never go stale — reference §2.2's "computed over the live registry", minus re-walking
 * 5,000 definitions for every query; reference §6's budget).
 */
import type { Capability } from '../../core/capabilities/capability.js';
import { buildIndex, score, type Bm25fIndex, type ToolDocument } from './bm25f.js';

/** The server (or plugin) a tool belongs to: MCP server, plugin, else the name's first word. */
export function serverOf(cap: Capability): string {
  const { mcp_server: server, plugin } = cap.metadata;
  if (typeof server === 'string' && server) return server;
  if (typeof plugin === 'string' && plugin) return plugin;
  return cap.name.split(/[_.\-:]/)[0] ?? cap.name;
}

export function toolDocument(cap: Capability): ToolDocument {
  const properties = cap.parameters?.properties;
  const entries = properties && typeof properties === 'object' ? Object.entries(properties as Record<string, unknown>) : [];
  const paramDescriptions = entries.map(([, schema]) => {
    const description = schema && typeof schema === 'object' ? (schema as { description?: unknown }).description : undefined;
    return typeof description === 'string' ? description : '';
  });
  const server = serverOf(cap);
  return {
    server,
    fields: {
      name: cap.name,
      server: server.replace(/[_-]/g, ' '),
      description: cap.description,
      paramNames: entries.map(([name]) => name).join(' '),
      paramDescriptions: paramDescriptions.join(' '),
    },
  };
}

const indexCache = new WeakMap<readonly Capability[], Bm25fIndex>();

export function catalogIndex(catalog: readonly Capability[]): Bm25fIndex {
  let index = indexCache.get(catalog);
  if (!index) {
    index = buildIndex(catalog.map(toolDocument));
    indexCache.set(catalog, index);
  }
  return index;
}

export interface Ranked { doc: number; score: number }

/** Best first: higher score, then name (stable across runs, so the prompt cache sees the same result). */
function better(catalog: readonly Capability[], a: Ranked, b: Ranked): boolean {
  return a.score > b.score || (a.score === b.score && catalog[a.doc].name < catalog[b.doc].name);
}

/** The `wanted` best tools for `query`; [] when no term matches. Top-k by insertion: k ≤ 100. */
export function lexicalRank(catalog: readonly Capability[], query: string, wanted: number): Ranked[] {
  const { scores, touched } = score(catalogIndex(catalog), query);
  const top: Ranked[] = [];
  for (let i = 0; i < touched.length; i += 1) {
    const entry = { doc: touched[i], score: scores[touched[i]] };
    if (entry.score <= 0) continue;
    if (top.length === wanted && !better(catalog, entry, top[top.length - 1])) continue;
    let at = top.length;
    while (at > 0 && better(catalog, entry, top[at - 1])) at -= 1;
    top.splice(at, 0, entry);
    if (top.length > wanted) top.pop();
  }
  return top;
}

/** Reference §2.2's fallback when nothing scores: the query as a substring of tool names. */
export function nameSubstringMatches(catalog: readonly Capability[], query: string, wanted: number): number[] {
  const needle = query.trim().toLowerCase();
  const variants = [...new Set([needle, needle.replace(/\s+/g, '_')])].filter((v) => v.length > 0);
  const hits: number[] = [];
  catalog.forEach((cap, doc) => {
    const name = cap.name.toLowerCase();
    if (variants.some((variant) => name.includes(variant))) hits.push(doc);
  });
  hits.sort((a, b) => (catalog[a].name < catalog[b].name ? -1 : catalog[a].name > catalog[b].name ? 1 : 0));
  return hits.slice(0, wanted);
}
