// tool_search quality in CI (issue 4 item 4). The tuned set (bench/data/tool-corpus.json) must meet the
// issue's lexical goals; the held-out set (heldout-*.json, never tuned on) must not fall below what was
// measured when it was first run: recall@1 0.767, @5 0.901, @10 0.932, MRR 0.828 (no_server @5 0.788).
// The floors sit just under those figures, so a regression of a few queries fails the build.
import { describe, expect, it } from 'vitest';
import { rankTools } from '../main/tools/tool-search.js';
import { baselineRank } from './suites/bm25-baseline.js';
import { loadSets } from './suites/tool-corpus.js';
import { catalogOf, evaluate } from './suites/tool-search-eval.js';
import { createHybridRanker } from '../main/tools/search/hybrid.js';
import { localEmbeddings } from './suites/local-embeddings.js';

const sets = loadSets();
const lexical = (catalog: Parameters<typeof rankTools>[0], query: string) => rankTools(catalog, query, 10).matches.map((m) => m.name);

describe('tool_search evaluation', () => {
  it('meets the lexical goals on the tuned set (recall@5 ≥ 0.90, recall@1 ≥ 0.75)', async () => {
    const { overall } = await evaluate(sets.tuned, lexical);
    expect(overall.recall5).toBeGreaterThanOrEqual(0.9);
    expect(overall.recall1).toBeGreaterThanOrEqual(0.75);
  });

  it('holds its measured level on the held-out set, and beats plain BM25 there', async () => {
    const ours = await evaluate(sets.heldout, lexical);
    expect(sets.heldout.tools.length).toBeGreaterThanOrEqual(300);
    expect(sets.heldout.queries.length).toBeGreaterThanOrEqual(300);
    expect(ours.overall.recall1).toBeGreaterThanOrEqual(0.75);
    expect(ours.overall.recall5).toBeGreaterThanOrEqual(0.89);
    expect(ours.overall.recall10).toBeGreaterThanOrEqual(0.92);
    expect(ours.overall.mrr).toBeGreaterThanOrEqual(0.81);
    expect(ours.byStyle.no_server.recall5).toBeGreaterThanOrEqual(0.77);
    const baseline = await evaluate(sets.heldout, (catalog, query) => baselineRank(catalog, query, 10));
    expect(ours.overall.mrr).toBeGreaterThan(baseline.overall.mrr);
  });

  it('every expected tool exists in its set and every held-out query has a style', () => {
    for (const set of [sets.tuned, sets.heldout]) {
      const names = new Set(set.tools.map((t) => t.name));
      expect(set.queries.filter((q) => !names.has(q.expected))).toEqual([]);
    }
    expect(sets.heldout.queries.filter((q) => !['paraphrase', 'keywords', 'no_server', 'direct'].includes(q.style ?? ''))).toEqual([]);
  });

  // Hybrid mode with a real model (Universal Sentence Encoder lite, local-embeddings.ts). Measured when
  // the weighted fusion was chosen (on the tuned set): tuned @5 0.980; held-out @1 0.748, @5 0.922,
  // @10 0.946, against lexical alone 0.767 / 0.901 / 0.932. The floors keep hybrid at least as good as
  // lexical at @5 and @10 on the held-out set, so a fusion change that lets weak vectors pull good
  // lexical hits down (equal-weight RRF: 0.882 @5) fails the build. The vectors alone score held-out
  // @5 0.729 (tuned 0.920): a floor under that catches a broken vector ranking (e.g. wrong tool text).
  it('hybrid mode with a real local model beats lexical alone on the held-out set at @5 and @10', async () => {
    const client = await localEmbeddings();
    const hybrid = async (set: typeof sets.heldout) => {
      const ranker = createHybridRanker(client);
      const names = (catalog: Parameters<typeof rankTools>[0], docs: number[]) => docs.map((doc) => catalog[doc].name);
      const fused = await evaluate(set, async (catalog, query) => names(catalog, await ranker.rank(catalog, query, 10)), catalogOf(set));
      const vectors = await evaluate(set, async (catalog, query) => names(catalog, await ranker.vectorRank(catalog, query, 10)), catalogOf(set));
      return { fused, vectors };
    };
    const [heldout, lexicalOnly] = [await hybrid(sets.heldout), await evaluate(sets.heldout, lexical)];
    expect(heldout.fused.overall.recall5).toBeGreaterThanOrEqual(0.91);
    expect(heldout.fused.overall.recall5).toBeGreaterThan(lexicalOnly.overall.recall5);
    expect(heldout.fused.overall.recall10).toBeGreaterThanOrEqual(lexicalOnly.overall.recall10);
    expect(heldout.vectors.overall.recall5).toBeGreaterThanOrEqual(0.7);
    const tuned = await hybrid(sets.tuned);
    expect(tuned.fused.overall.recall5).toBeGreaterThanOrEqual(0.97);
    expect(tuned.vectors.overall.recall5).toBeGreaterThanOrEqual(0.9);
  }, 180_000);
});
