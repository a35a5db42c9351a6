// The memories behind graph answers: current versions (passing the recall filter) of the memories
// that edge_sources / memo_sources name for the given edges and memos, in the order those were
// given. Provenance rows of forgotten memories are deleted by forget, so nothing forgotten comes
// back.
import type { Tx } from "../../pools";
import {
  candidateFilter,
  recallColumns,
  type RecallFilterInput,
  type RecallRow,
} from "../recall/common";

export type GroundedMemory = RecallRow & { groundedEdges: string[] };

type SourceRow = { memory_id: string; rank: number; edge_ids: string[] };

export async function groundingMemories(
  tx: Tx,
  filter: RecallFilterInput,
  edgeIds: string[],
  memoIds: string[],
  limit: number,
): Promise<GroundedMemory[]> {
  if ((edgeIds.length === 0 && memoIds.length === 0) || limit <= 0) return [];
  const sources = await tx<SourceRow[]>`
    SELECT memory_id, min(rank)::int AS rank, array_remove(array_agg(DISTINCT edge_id), NULL) AS edge_ids FROM (
      SELECT es.memory_id, es.edge_id, u.ord AS rank
      FROM unnest(${edgeIds}::text[]) WITH ORDINALITY AS u(id, ord)
      JOIN edge_sources es ON es.org_id = ${filter.orgId} AND es.edge_id = u.id
      UNION ALL
      SELECT ms.memory_id, NULL, u.ord + ${edgeIds.length}::int
      FROM unnest(${memoIds}::text[]) WITH ORDINALITY AS u(id, ord)
      JOIN memo_sources ms ON ms.org_id = ${filter.orgId} AND ms.memo_id = u.id
    ) AS s
    GROUP BY memory_id ORDER BY min(rank), memory_id LIMIT ${limit * 4}`;
  if (sources.length === 0) return [];
  const rows = await tx<RecallRow[]>`
    SELECT ${recallColumns(tx)}, 0::real AS score FROM memories
    WHERE ${candidateFilter(tx, filter)} AND memory_id = ANY(${sources.map((s) => s.memory_id)}::text[])`;
  const byId = new Map(rows.map((r) => [r.memory_id, r]));
  return sources
    .flatMap((s) => {
      const row = byId.get(s.memory_id);
      return row ? [{ ...row, groundedEdges: s.edge_ids }] : [];
    })
    .slice(0, limit)
    .map((row, i) => ({ ...row, score: 1 / (1 + i) }));
}

/**
 * Whether the agent has any live memo: the cheap check behind "no graph yet" notices and AUTO's
 * graph rules.
 */
export async function agentHasGraph(tx: Tx, orgId: string, agentId: string): Promise<boolean> {
  const [row] = await tx<{ present: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM memos WHERE org_id = ${orgId} AND agent_id = ${agentId} AND retired_at IS NULL) AS present`;
  return row!.present;
}
