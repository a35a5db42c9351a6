// edges and edge_sources rows as distill writes them: the reinforcing upsert on an edge's identity,
// provenance rows that count mentions, and closing edges (superseded facts).
import type { Tx } from "../../pools";

export type NewEdge = {
  edge_id: string;
  src_memo_id: string;
  relation: string;
  dst_memo_id: string;
  fact: string;
  confidence: number;
  valid_at: Date | null;
  invalid_at: Date | null;
  observed_at: Date;
};

export type EdgeIdentity = {
  src_memo_id: string;
  relation: string;
  dst_memo_id: string;
  valid_at: Date | null;
};
export type UpsertedEdge = EdgeIdentity & { edge_id: string; inserted: boolean };

export const identityKey = (e: EdgeIdentity) =>
  `${e.src_memo_id}\u0000${e.relation}\u0000${e.dst_memo_id}\u0000${e.valid_at?.getTime() ?? "-"}`;

/**
 * One row per identity (src, relation, dst, valid_at) among live edges: a restated fact lands on
 * the existing edge (edges_identity), never beside it. New edges start at weight = confidence and
 * mention_count 0; addEdgeSources then counts their sources. Rows are sorted so concurrent writers
 * lock in one order.
 */
export async function upsertEdges(
  tx: Tx,
  orgId: string,
  agentId: string,
  edges: NewEdge[],
): Promise<UpsertedEdge[]> {
  if (edges.length === 0) return [];
  const rows = [...edges]
    .sort((a, b) => (identityKey(a) < identityKey(b) ? -1 : 1))
    .map((e) => ({
      org_id: orgId,
      agent_id: agentId,
      origin: "extracted",
      weight: e.confidence,
      mention_count: 0,
      ...e,
    }));
  return tx<UpsertedEdge[]>`
    INSERT INTO edges ${tx(rows)}
    ON CONFLICT (org_id, src_memo_id, relation, dst_memo_id, (coalesce(valid_at, '-infinity'::timestamptz))) WHERE expired_at IS NULL
    DO UPDATE SET observed_at = greatest(edges.observed_at, EXCLUDED.observed_at),
      confidence = greatest(edges.confidence, EXCLUDED.confidence),
      invalid_at = coalesce(edges.invalid_at, EXCLUDED.invalid_at)
    RETURNING edge_id, src_memo_id, relation, dst_memo_id, valid_at, (xmax = 0) AS inserted`;
}

export type EdgeSourceRow = {
  edge_id: string;
  memory_id: string;
  memory_version: number;
  char_start: number | null;
  char_end: number | null;
  extractor: string;
  confidence: number;
};

/**
 * edge_sources rows (ON CONFLICT DO NOTHING: a memory version supports an edge once, whichever
 * extractor read it). Each new source adds a mention; on an edge that already had mentions it also
 * reinforces: weight ← 1 − (1 − weight)(1 − confidence/2), and last_reinforced_at. Returns the ids
 * of edges that existed before and were reinforced.
 */
export async function addEdgeSources(
  tx: Tx,
  orgId: string,
  rows: EdgeSourceRow[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const values = rows.map(({ confidence: _c, ...r }) => ({ org_id: orgId, ...r }));
  const confidence = new Map(rows.map((r) => [r.edge_id, r.confidence]));
  const added = await tx<{ edge_id: string }[]>`
    INSERT INTO edge_sources ${tx(values)}
    ON CONFLICT DO NOTHING RETURNING edge_id`;
  if (added.length === 0) return [];
  const counts = new Map<string, number>();
  for (const a of added) counts.set(a.edge_id, (counts.get(a.edge_id) ?? 0) + 1);
  const ids = [...counts.keys()];
  const reinforced = await tx<{ edge_id: string; before: number }[]>`
    UPDATE edges e SET
      weight = least(1, 1 - (1 - e.weight) * power(1 - d.conf / 2, CASE WHEN e.mention_count = 0 THEN d.n - 1 ELSE d.n END))::real,
      last_reinforced_at = CASE WHEN e.mention_count > 0 THEN now() ELSE e.last_reinforced_at END,
      mention_count = e.mention_count + d.n
    FROM unnest(${ids}::text[], ${ids.map((id) => counts.get(id)!)}::int[], ${ids.map((id) => confidence.get(id)!)}::float8[]) AS d(edge_id, n, conf)
    WHERE e.org_id = ${orgId} AND e.edge_id = d.edge_id
    RETURNING e.edge_id, e.mention_count - d.n AS before`;
  return reinforced.filter((r) => r.before > 0).map((r) => r.edge_id);
}

export type SlotEdge = {
  edge_id: string;
  src_memo_id: string;
  relation: string;
  dst_memo_id: string;
  valid_at: Date | null;
  observed_at: Date | null;
  created_at: Date;
};

/**
 * Live, open-ended edges on the given (src, relation) slots: the candidates a functional relation
 * supersedes.
 */
export async function openEdgesOnSlots(
  tx: Tx,
  orgId: string,
  slots: Array<{ src_memo_id: string; relation: string }>,
): Promise<SlotEdge[]> {
  if (slots.length === 0) return [];
  return tx<SlotEdge[]>`
    SELECT e.edge_id, e.src_memo_id, e.relation, e.dst_memo_id, e.valid_at, e.observed_at, e.created_at
    FROM unnest(${slots.map((s) => s.src_memo_id)}::text[], ${slots.map((s) => s.relation)}::text[]) AS s(src, rel)
    JOIN edges e ON e.org_id = ${orgId} AND e.src_memo_id = s.src AND e.relation = s.rel
    WHERE e.expired_at IS NULL AND e.invalid_at IS NULL`;
}

/** Live, open-ended edges with exactly these endpoints and relation: what a negated fact closes. */
export async function openEdgesMatching(
  tx: Tx,
  orgId: string,
  triples: Array<{ src_memo_id: string; relation: string; dst_memo_id: string }>,
): Promise<SlotEdge[]> {
  if (triples.length === 0) return [];
  return tx<SlotEdge[]>`
    SELECT e.edge_id, e.src_memo_id, e.relation, e.dst_memo_id, e.valid_at, e.observed_at, e.created_at
    FROM unnest(${triples.map((s) => s.src_memo_id)}::text[], ${triples.map((s) => s.relation)}::text[], ${triples.map((s) => s.dst_memo_id)}::text[]) AS s(src, rel, dst)
    JOIN edges e ON e.org_id = ${orgId} AND e.src_memo_id = s.src AND e.relation = s.rel AND e.dst_memo_id = s.dst
    WHERE e.expired_at IS NULL AND e.invalid_at IS NULL`;
}

export type EdgeClosure = { edge_id: string; invalid_at: Date; superseded_by: string | null };

/** Ends edges in event time (invalid_at) and system time (expired_at = now, reason superseded). */
export async function closeEdges(tx: Tx, orgId: string, closures: EdgeClosure[]): Promise<number> {
  if (closures.length === 0) return 0;
  const rows = await tx`
    UPDATE edges e SET invalid_at = c.invalid_at, expired_at = now(), expired_reason = 'superseded', superseded_by = c.superseded_by
    FROM unnest(${closures.map((c) => c.edge_id)}::text[], ${closures.map((c) => c.invalid_at.toISOString())}::timestamptz[], ${closures.map((c) => c.superseded_by)}::text[]) AS c(edge_id, invalid_at, superseded_by)
    WHERE e.org_id = ${orgId} AND e.edge_id = c.edge_id AND e.expired_at IS NULL
    RETURNING e.edge_id`;
  return rows.length;
}
