// The cascade from memory versions into the graph (forget, and re-distill after a PATCH): delete
// their provenance rows, expire edges left without a source, retire memos left without sources or
// live edges, and retire SUMMARY memos whose cluster they touched.
import type { Tx } from "../../pools";

export type CascadeReason = "source_forgotten" | "source_revised";

/**
 * Whole memories (forget), or only their versions below `belowVersion` (a re-distill after a
 * PATCH).
 */
export type ProvenanceScope = Array<{ memory_id: string; belowVersion: number | null }>;

export type RetiredEdge = { edge_id: string; fact: string };
export type RetiredMemo = { memo_id: string; name: string; reason: string };

const scopeArrays = (scope: ProvenanceScope) =>
  [scope.map((s) => s.memory_id), scope.map((s) => s.belowVersion ?? 2147483647)] as const;

/**
 * Deletes the scoped edge_sources and memo_sources rows; returns the edges and memos that lost one,
 * with how many.
 */
export async function deleteProvenance(
  tx: Tx,
  orgId: string,
  scope: ProvenanceScope,
): Promise<{ edges: Map<string, number>; memos: Map<string, number> }> {
  const [ids, below] = scopeArrays(scope);
  const edges = await tx<{ edge_id: string }[]>`
    DELETE FROM edge_sources s USING unnest(${ids}::text[], ${below}::int[]) AS v(memory_id, below)
    WHERE s.org_id = ${orgId} AND s.memory_id = v.memory_id AND s.memory_version < v.below
    RETURNING s.edge_id`;
  const memos = await tx<{ memo_id: string }[]>`
    DELETE FROM memo_sources s USING unnest(${ids}::text[], ${below}::int[]) AS v(memory_id, below)
    WHERE s.org_id = ${orgId} AND s.memory_id = v.memory_id AND s.memory_version < v.below
    RETURNING s.memo_id`;
  const count = (list: string[]) =>
    list.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());
  return { edges: count(edges.map((e) => e.edge_id)), memos: count(memos.map((m) => m.memo_id)) };
}

/**
 * Edges that lost sources: those left with none (and inferred ones that lost any) are expired with
 * `reason` (live ones, and superseded ones, which would otherwise still show in as_of views and
 * TRACE timelines); the others count one mention less. User-made edges stay. A revision never
 * relabels an edge a forget already retired.
 */
export async function expireUnsourcedEdges(
  tx: Tx,
  orgId: string,
  lost: Map<string, number>,
  reason: CascadeReason,
): Promise<Array<RetiredEdge & { src_memo_id: string; dst_memo_id: string }>> {
  if (lost.size === 0) return [];
  const ids = [...lost.keys()];
  const relabel =
    reason === "source_forgotten"
      ? tx`e.expired_reason IS DISTINCT FROM 'source_forgotten'`
      : tx`(e.expired_reason IS NULL OR e.expired_reason = 'superseded')`;
  // One UPDATE writes both the count and the expiry: every edge row version costs an entry in each
  // of the table's indexes, so a second pass over the same edges doubled a large forget's cost.
  const rows = await tx<
    Array<RetiredEdge & { src_memo_id: string; dst_memo_id: string; retire: boolean }>
  >`
    UPDATE edges target SET mention_count = greatest(0, target.mention_count - d.n),
      expired_at = CASE WHEN d.retire THEN now() ELSE target.expired_at END,
      expired_reason = CASE WHEN d.retire THEN ${reason} ELSE target.expired_reason END
    FROM (
      SELECT e.edge_id, l.n, (e.origin <> 'user' AND ${relabel}
        -- An inferred edge (refine) holds only while all its premises do: losing any source ends it.
        -- NOT IN over the scoped ids is read once; a correlated NOT EXISTS rescanned the org per row
        -- whenever the planner misjudged the tables' sizes (a 1,000-memory forget hit the timeout).
        AND (e.origin = 'inferred' OR e.edge_id NOT IN (
          SELECT s.edge_id FROM edge_sources s WHERE s.org_id = ${orgId} AND s.edge_id = ANY(${ids}::text[])))) AS retire
      FROM unnest(${ids}::text[], ${ids.map((id) => lost.get(id)!)}::int[]) AS l(edge_id, n)
      JOIN edges e ON e.org_id = ${orgId} AND e.edge_id = l.edge_id
    ) AS d
    WHERE target.org_id = ${orgId} AND target.edge_id = d.edge_id
    RETURNING target.edge_id, target.fact, target.src_memo_id, target.dst_memo_id, d.retire`;
  return rows.filter((r) => r.retire).map(({ retire: _, ...edge }) => edge);
}

/**
 * Memos that lost sources count fewer mentions; candidates left without sources and without live
 * edges are retired. One UPDATE writes both, so each memo row is written once (a second pass over
 * the same memos cost a large forget a third of its memo time).
 */
export async function retireOrphanMemos(
  tx: Tx,
  orgId: string,
  lost: Map<string, number>,
  candidates: string[],
  reason: CascadeReason,
): Promise<RetiredMemo[]> {
  if (lost.size === 0 && candidates.length === 0) return [];
  const ids = [...lost.keys()];
  const rows = await tx<Array<RetiredMemo & { orphan: boolean }>>`
    UPDATE memos m SET mention_count = greatest(0, m.mention_count - d.n),
      retired_at = CASE WHEN d.orphan THEN now() ELSE m.retired_at END,
      retired_reason = CASE WHEN d.orphan THEN ${reason} ELSE m.retired_reason END,
      updated_at = CASE WHEN d.orphan THEN now() ELSE m.updated_at END
    FROM (
      SELECT c.memo_id, c.n, (c.candidate AND x.retired_at IS NULL AND x.origin <> 'user'
        AND x.memo_type <> 'SUMMARY'
        -- Uncorrelated, as in expireUnsourcedEdges: each set is read once for all candidates.
        AND c.memo_id NOT IN (SELECT s.memo_id FROM memo_sources s
          WHERE s.org_id = ${orgId} AND s.memo_id = ANY(${candidates}::text[]))
        AND c.memo_id NOT IN (SELECT e.src_memo_id FROM edges e
          WHERE e.org_id = ${orgId} AND e.src_memo_id = ANY(${candidates}::text[])
            AND e.expired_at IS NULL)
        AND c.memo_id NOT IN (SELECT e.dst_memo_id FROM edges e
          WHERE e.org_id = ${orgId} AND e.dst_memo_id = ANY(${candidates}::text[])
            AND e.expired_at IS NULL)) AS orphan
      FROM (
        SELECT memo_id, sum(n)::int AS n, bool_or(candidate) AS candidate FROM (
          SELECT memo_id, n, false AS candidate
          FROM unnest(${ids}::text[], ${ids.map((id) => lost.get(id)!)}::int[]) AS l(memo_id, n)
          UNION ALL
          SELECT memo_id, 0, true FROM unnest(${candidates}::text[]) AS k(memo_id)
        ) AS u GROUP BY memo_id
      ) AS c
      JOIN memos x ON x.org_id = ${orgId} AND x.memo_id = c.memo_id
    ) AS d
    WHERE m.org_id = ${orgId} AND m.memo_id = d.memo_id AND (d.n > 0 OR d.orphan)
    RETURNING m.memo_id, m.name, m.retired_reason AS reason, d.orphan`;
  return rows.filter((r) => r.orphan).map(({ orphan: _, ...memo }) => memo);
}

/**
 * SUMMARY memos whose cluster contained a touched memo (a live SUMMARIZES edge to it) or that cite
 * the memory themselves (memo_sources): their text may repeat what was removed, so they are retired
 * ('stale_summary') with their SUMMARIZES edges; refine's summarize pass writes a fresh one.
 */
export async function retireStaleSummaries(
  tx: Tx,
  orgId: string,
  touchedMemos: string[],
  reason: CascadeReason,
): Promise<{ memos: RetiredMemo[]; edges: RetiredEdge[] }> {
  if (touchedMemos.length === 0) return { memos: [], edges: [] };
  const memos = await tx<RetiredMemo[]>`
    UPDATE memos m SET retired_at = now(), retired_reason = 'stale_summary', updated_at = now()
    WHERE m.org_id = ${orgId} AND m.memo_type = 'SUMMARY' AND m.retired_at IS NULL AND (
      m.memo_id = ANY(${touchedMemos}::text[])
      OR m.memo_id IN (SELECT e.src_memo_id FROM edges e WHERE e.org_id = ${orgId} AND e.dst_memo_id = ANY(${touchedMemos}::text[])
                         AND e.relation = 'SUMMARIZES' AND e.expired_at IS NULL))
    RETURNING m.memo_id, m.name, m.retired_reason AS reason`;
  if (memos.length === 0) return { memos, edges: [] };
  const edges = await tx<RetiredEdge[]>`
    UPDATE edges e SET expired_at = now(), expired_reason = ${reason}
    WHERE e.org_id = ${orgId} AND e.src_memo_id = ANY(${memos.map((m) => m.memo_id)}::text[]) AND e.expired_at IS NULL
    RETURNING e.edge_id, e.fact`;
  return { memos, edges };
}
