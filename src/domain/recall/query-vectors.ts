// Recent query embeddings from a remote provider, per tenant and model, so a repeated query costs
// no provider call (and no tokens: nothing is spent, so nothing is metered). Keyed by tenant so one
// tenant cannot learn from a timing difference what another asked. The local embedder is not
// cached: it costs microseconds and is charged per call (budgets/charge.ts). Bounded LRU; a process
// restart empties it.
const MAX_ENTRIES = 2_000;

export type QueryVectorCache = {
  get(orgId: string, model: string, query: string): number[] | undefined;
  put(orgId: string, model: string, query: string, vector: number[]): void;
};

export function createQueryVectorCache(maxEntries = MAX_ENTRIES): QueryVectorCache {
  const entries = new Map<string, number[]>();
  const keyOf = (orgId: string, model: string, query: string) =>
    `${orgId}\u0000${model}\u0000${query}`;
  return {
    get(orgId, model, query) {
      const key = keyOf(orgId, model, query);
      const vector = entries.get(key);
      if (vector === undefined) return undefined;
      entries.delete(key); // re-insert: Map order is recency order
      entries.set(key, vector);
      return vector;
    },
    put(orgId, model, query, vector) {
      const key = keyOf(orgId, model, query);
      entries.delete(key);
      entries.set(key, vector);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}
