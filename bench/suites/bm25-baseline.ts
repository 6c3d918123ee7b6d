/**
 * The plain BM25 tool_search shipped before issue 4 item 4 (reference §2.2: k1 1.5, b 0.75, one bag of
 * name + description + parameter-name tokens, no stemming), kept as the bench's baseline so every
 * figure of the new ranker stands beside what it replaced.
 */
import type { Capability } from '../../main/core/capabilities/index.js';

const tokenize = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length > 0);

const cache = new WeakMap<readonly Capability[], { docs: Map<string, number>[]; lengths: number[]; df: Map<string, number>; avg: number }>();

export function baselineRank(catalog: readonly Capability[], query: string, limit: number): string[] {
  let index = cache.get(catalog);
  if (!index) {
    const docs = catalog.map((cap) => {
      const params = Object.keys((cap.parameters?.properties ?? {}) as Record<string, unknown>);
      const tokens = [...tokenize(cap.name), ...tokenize(cap.description), ...params.flatMap(tokenize)];
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      return { tf, length: tokens.length };
    });
    const df = new Map<string, number>();
    for (const { tf } of docs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
    index = { docs: docs.map((d) => d.tf), lengths: docs.map((d) => d.length), df, avg };
    cache.set(catalog, index);
  }
  const { docs, lengths, df, avg } = index;
  const n = catalog.length;
  const terms = [...new Set(tokenize(query))];
  return docs
    .map((tf, i) => ({
      name: catalog[i].name,
      score: terms.reduce((s, t) => {
        const f = tf.get(t) ?? 0;
        if (f === 0) return s;
        const d = df.get(t) ?? 0;
        return s + (Math.log((n - d + 0.5) / (d + 0.5) + 1) * f * 2.5) / (f + 1.5 * (0.25 + (0.75 * lengths[i]) / avg));
      }, 0),
    }))
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1))
    .slice(0, limit)
    .map((e) => e.name);
}
