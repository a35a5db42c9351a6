// Retrieval metrics over ranked id lists with a set of relevant ids (binary relevance).

export type Scores = { recall5: number; recall10: number; mrr: number; ndcg10: number };

/** Fraction of the relevant ids found in the first `k` ranked ids. */
export const recallAt = (ranked: string[], relevant: string[], k: number): number =>
  relevant.filter((id) => ranked.slice(0, k).includes(id)).length / relevant.length;

/** 1 / rank of the first relevant id (0 when none is ranked). */
export function reciprocalRank(ranked: string[], relevant: string[]): number {
  const rank = ranked.findIndex((id) => relevant.includes(id));
  return rank < 0 ? 0 : 1 / (rank + 1);
}

/** nDCG@k with binary gains: DCG of the ranking over DCG of the ideal ranking. */
export function ndcgAt(ranked: string[], relevant: string[], k: number): number {
  const dcg = ranked
    .slice(0, k)
    .reduce((s, id, i) => s + (relevant.includes(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = relevant.slice(0, k).reduce((s, _id, i) => s + 1 / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function score(ranked: string[], relevant: string[]): Scores {
  return {
    recall5: recallAt(ranked, relevant, 5),
    recall10: recallAt(ranked, relevant, 10),
    mrr: reciprocalRank(ranked, relevant),
    ndcg10: ndcgAt(ranked, relevant, 10),
  };
}

export function mean(all: Scores[]): Scores {
  const n = Math.max(1, all.length);
  return {
    recall5: all.reduce((s, x) => s + x.recall5, 0) / n,
    recall10: all.reduce((s, x) => s + x.recall10, 0) / n,
    mrr: all.reduce((s, x) => s + x.mrr, 0) / n,
    ndcg10: all.reduce((s, x) => s + x.ndcg10, 0) / n,
  };
}

/** Reciprocal-rank fusion (k = 60) of several rankings. */
export function reciprocalRankFusion(rankings: string[][], k = 60): string[] {
  const fused = new Map<string, number>();
  for (const ranking of rankings)
    ranking.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + 1 / (k + i + 1)));
  return [...fused.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([id]) => id);
}
