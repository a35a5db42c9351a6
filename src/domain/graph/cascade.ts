// The cascade from memories into the graph, run inside the caller's transaction: forget (every
// path: API, TTL sweep, retention cap) and re-distill after a PATCH both go through here.
import {
  deleteProvenance,
  expireUnsourcedEdges,
  retireOrphanMemos,
  retireStaleSummaries,
  type CascadeReason,
  type ProvenanceScope,
  type RetiredEdge,
  type RetiredMemo,
} from "../../data/queries/graph/cascade";
import { lockAgentGraphs } from "../../data/queries/graph/locks";
import type { Tx } from "../../data/pools";

export type GraphRetirement = { edges: RetiredEdge[]; memos: RetiredMemo[] };

export const NOTHING_RETIRED: GraphRetirement = Object.freeze({
  edges: [],
  memos: [],
}) as GraphRetirement;

/**
 * Removes the scoped memory versions from the graph. Order matters: edges first (an edge without a
 * source is gone), then summaries over anything touched (their SUMMARIZES edges would otherwise
 * keep members alive), then memos left with neither a source nor a live edge. The caller holds the
 * memory locks; the agents' graph locks are taken here, after them (the order every graph writer
 * uses).
 */
export async function cascadeIntoGraph(
  tx: Tx,
  orgId: string,
  agentIds: string[],
  scope: ProvenanceScope,
  reason: CascadeReason,
): Promise<GraphRetirement> {
  if (scope.length === 0) return NOTHING_RETIRED;
  await lockAgentGraphs(tx, agentIds);
  const lost = await deleteProvenance(tx, orgId, scope);
  if (lost.edges.size === 0 && lost.memos.size === 0) return NOTHING_RETIRED;
  const edges = await expireUnsourcedEdges(tx, orgId, lost.edges, reason);
  const touched = [
    ...new Set([...lost.memos.keys(), ...edges.flatMap((e) => [e.src_memo_id, e.dst_memo_id])]),
  ];
  const summaries = await retireStaleSummaries(tx, orgId, touched, reason);
  const memos = await retireOrphanMemos(tx, orgId, lost.memos, touched, reason);
  return {
    edges: [...edges.map(({ edge_id, fact }) => ({ edge_id, fact })), ...summaries.edges],
    memos: [...memos, ...summaries.memos],
  };
}
