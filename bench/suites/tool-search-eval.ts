/**
 * Recall@1/5/10 and MRR of a ranker over an evaluation set, overall and per query style. Shared by the
 * bench (bench/suites/tool-search.ts) and the CI test (bench/tool-search-eval.test.ts).
 */
import type { Capability } from '../../main/core/capabilities/index.js';
import { toCapability, type EvalSet } from './tool-corpus.js';

export interface Scores { count: number; recall1: number; recall5: number; recall10: number; mrr: number }
export interface EvalReport { overall: Scores; byStyle: Record<string, Scores>; misses: string[] }

export type Ranker = (catalog: readonly Capability[], query: string) => string[] | Promise<string[]>;

function summarise(ranks: number[]): Scores {
  const count = ranks.length || 1;
  const within = (k: number) => ranks.filter((rank) => rank > 0 && rank <= k).length / count;
  return { count: ranks.length, recall1: within(1), recall5: within(5), recall10: within(10), mrr: ranks.reduce((sum, rank) => sum + (rank > 0 ? 1 / rank : 0), 0) / count };
}

export function catalogOf(set: EvalSet): Capability[] {
  return set.tools.map((tool, index) => toCapability(tool, index));
}

/** `rank` returns up to 10 names best first. */
export async function evaluate(set: EvalSet, rank: Ranker, catalog: readonly Capability[] = catalogOf(set)): Promise<EvalReport> {
  const ranks: number[] = [];
  const byStyle = new Map<string, number[]>();
  const misses: string[] = [];
  for (const { query, expected, style } of set.queries) {
    const names = (await rank(catalog, query)).slice(0, 10);
    const rank1 = names.indexOf(expected) + 1;
    ranks.push(rank1);
    const key = style ?? 'all';
    byStyle.set(key, [...(byStyle.get(key) ?? []), rank1]);
    if (rank1 === 0 || rank1 > 5) misses.push(`${query} → ${expected} (got ${names.slice(0, 3).join(', ') || 'nothing'})`);
  }
  return { overall: summarise(ranks), byStyle: Object.fromEntries([...byStyle].map(([style, list]) => [style, summarise(list)])), misses };
}
