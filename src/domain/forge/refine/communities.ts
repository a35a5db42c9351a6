// Community detection for summarize: asynchronous label propagation over weighted, undirected
// edges, made deterministic (nodes visited in id order, ties to the smallest label) and bounded (at
// most `maxIterations` sweeps: unbounded label propagation can oscillate forever, Graphiti's
// hangs).

export type WeightedEdge = { a: string; b: string; weight: number };

export type Communities = { clusters: string[][]; iterations: number; converged: boolean };

export function labelPropagation(
  nodes: string[],
  edges: WeightedEdge[],
  maxIterations: number,
): Communities {
  const order = [...new Set(nodes)].sort();
  const adjacency = new Map<string, Map<string, number>>(order.map((n) => [n, new Map()]));
  for (const { a, b, weight } of edges) {
    if (a === b || !adjacency.has(a) || !adjacency.has(b)) continue;
    const w = Math.max(weight, 1e-6);
    adjacency.get(a)!.set(b, (adjacency.get(a)!.get(b) ?? 0) + w);
    adjacency.get(b)!.set(a, (adjacency.get(b)!.get(a) ?? 0) + w);
  }
  const label = new Map(order.map((n) => [n, n]));
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations && !converged) {
    iterations++;
    converged = true;
    for (const node of order) {
      const scores = new Map<string, number>();
      for (const [neighbour, w] of adjacency.get(node)!) {
        const l = label.get(neighbour)!;
        scores.set(l, (scores.get(l) ?? 0) + w);
      }
      if (scores.size === 0) continue;
      let best = label.get(node)!;
      let bestScore = -1;
      for (const [l, s] of scores)
        if (s > bestScore + 1e-12 || (Math.abs(s - bestScore) <= 1e-12 && l < best))
          [best, bestScore] = [l, s];
      if (best !== label.get(node)) {
        label.set(node, best);
        converged = false;
      }
    }
  }
  const byLabel = new Map<string, string[]>();
  for (const node of order) {
    const l = label.get(node)!;
    const members = byLabel.get(l);
    if (members) members.push(node);
    else byLabel.set(l, [node]);
  }
  return { clusters: [...byLabel.values()], iterations, converged };
}
