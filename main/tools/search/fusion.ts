/**
 * Reciprocal rank fusion (Cormack et al. 2009): score = Σ 1/(k + rank). Rank-based, so BM25 scores and
 * cosine similarities need no common scale; k 60 is the paper's constant.
 */
export const RRF_K = 60;

/** Fuses ranked lists of document numbers (best first); ties break on the first list's order. */
export function reciprocalRankFusion(rankings: readonly (readonly number[])[], k = RRF_K): number[] {
  const scores = new Map<number, number>();
  const firstSeen = new Map<number, number>();
  let order = 0;
  for (const ranking of rankings) {
    ranking.forEach((doc, rank) => {
      scores.set(doc, (scores.get(doc) ?? 0) + 1 / (k + rank + 1));
      if (!firstSeen.has(doc)) firstSeen.set(doc, order++);
    });
  }
  return [...scores.keys()].sort((a, b) => scores.get(b)! - scores.get(a)! || firstSeen.get(a)! - firstSeen.get(b)!);
}
