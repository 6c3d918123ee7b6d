/**
 * Weighted reciprocal rank fusion (Cormack et al. 2009): score = Σ wᵢ/(k + rankᵢ). Rank-based, so BM25
 * scores and cosine similarities need no common scale. With equal weights and the paper's k 60, the
 * vector ranking of a small local model (Universal Sentence Encoder lite) pulled good lexical hits down:
 * held-out recall@5 0.882 against 0.901 for lexical alone. The hybrid ranker therefore weighs the
 * lexical list 4:1 with k 10 — parameters chosen on the tuned set only (bench/suites/tool-search.ts,
 * decision 0016) — which keeps a strong lexical hit on top and lets the vectors decide among the rest.
 */
export const RRF_K = 60;

export interface WeightedRanking {
  docs: readonly number[];
  weight: number;
}

/** Fuses ranked lists of document numbers (best first); ties break on the first list's order. */
export function reciprocalRankFusion(rankings: readonly (readonly number[] | WeightedRanking)[], k = RRF_K): number[] {
  const scores = new Map<number, number>();
  const firstSeen = new Map<number, number>();
  let order = 0;
  for (const entry of rankings) {
    const { docs, weight } = Array.isArray(entry) ? { docs: entry as readonly number[], weight: 1 } : (entry as WeightedRanking);
    docs.forEach((doc, rank) => {
      scores.set(doc, (scores.get(doc) ?? 0) + weight / (k + rank + 1));
      if (!firstSeen.has(doc)) firstSeen.set(doc, order++);
    });
  }
  return [...scores.keys()].sort((a, b) => scores.get(b)! - scores.get(a)! || firstSeen.get(a)! - firstSeen.get(b)!);
}
