// A bounded breadth-first walk from some memos, both edge directions: at most `depth` hops,
// `fanout` edges per node and direction per hop (heaviest first), `maxNodes` nodes and `maxEdges`
// edges.
import { edgesAround, type EdgeRow, type EdgeTimeView } from "../../data/queries/graph/read";
import type { Tx } from "../../data/pools";

export type WalkScope = { orgId: string; agentId: string; view: EdgeTimeView; fanout: number };

export type Walked = { nodeIds: string[]; edges: EdgeRow[]; truncated: boolean };

export async function walk(
  tx: Tx,
  scope: WalkScope,
  start: string[],
  depth: number,
  maxNodes: number,
  maxEdges: number,
): Promise<Walked> {
  const nodes = new Set(start.slice(0, maxNodes));
  const edges = new Map<string, EdgeRow>();
  let truncated = start.length > maxNodes;
  let frontier = [...nodes];
  for (let hop = 0; hop < depth && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const edge of await edgesAround(
      tx,
      scope.orgId,
      scope.agentId,
      frontier,
      scope.view,
      scope.fanout,
    )) {
      if (edges.has(edge.edge_id)) continue;
      const fresh = [edge.src_memo_id, edge.dst_memo_id].filter((id) => !nodes.has(id));
      if (edges.size >= maxEdges || nodes.size + fresh.length > maxNodes) {
        truncated = true;
        continue;
      }
      for (const id of fresh) {
        nodes.add(id);
        next.push(id);
      }
      edges.set(edge.edge_id, edge);
    }
    frontier = next;
  }
  return { nodeIds: [...nodes], edges: [...edges.values()], truncated };
}
