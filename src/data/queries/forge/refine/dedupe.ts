// The dedupe pass's reads (an agent's live memos with their degree, aliases and typed neighbours)
// and its merge: repoint edges onto the surviving memo, collapse edges that become identical, move
// provenance and aliases, and leave the merged memo as a tombstone (merged_into) so its id
// resolves.
import type { Tx } from "../../../pools";
import { memoInScope, type RefineScope } from "./scope";

export type DedupeMemo = {
  memo_id: string;
  memo_type: string;
  name: string;
  normalized_name: string;
  aliases: string[];
  ontology_uri: string | null;
  created_at: Date;
  degree: number;
};

/** Live memos of one agent in scope (SUMMARY memos are refine's own output and never merged). */
export async function dedupeMemos(
  tx: Tx,
  scope: RefineScope,
  agentId: string,
): Promise<DedupeMemo[]> {
  return tx<DedupeMemo[]>`
    SELECT m.memo_id, m.memo_type, m.name, m.normalized_name, m.aliases, m.ontology_uri, m.created_at,
      ((SELECT count(*) FROM edges e WHERE e.src_memo_id = m.memo_id AND e.expired_at IS NULL)
       + (SELECT count(*) FROM edges e WHERE e.dst_memo_id = m.memo_id AND e.expired_at IS NULL))::int AS degree
    FROM memos m
    WHERE m.agent_id = ${agentId} AND m.retired_at IS NULL AND m.memo_type <> 'SUMMARY' ${memoInScope(tx, scope, "m")}
    ORDER BY m.memo_id`;
}

/** Lookup aliases (memo_aliases) of the agent's live memos, already normalised. */
export async function dedupeAliases(
  tx: Tx,
  agentId: string,
): Promise<Array<{ memo_id: string; normalized_alias: string }>> {
  return tx<Array<{ memo_id: string; normalized_alias: string }>>`
    SELECT DISTINCT a.memo_id, a.normalized_alias FROM memo_aliases a JOIN memos m ON m.memo_id = a.memo_id AND m.retired_at IS NULL
    WHERE a.agent_id = ${agentId}`;
}

/** The agent's current edges (SUMMARIZES excluded) as endpoint pairs: the typed neighbourhoods. */
export async function agentEdgeEnds(
  tx: Tx,
  agentId: string,
): Promise<Array<{ src_memo_id: string; dst_memo_id: string; relation: string }>> {
  return tx<Array<{ src_memo_id: string; dst_memo_id: string; relation: string }>>`
    SELECT src_memo_id, dst_memo_id, relation FROM edges WHERE agent_id = ${agentId} AND expired_at IS NULL AND relation <> 'SUMMARIZES'`;
}

type LiveEdge = {
  edge_id: string;
  src_memo_id: string;
  dst_memo_id: string;
  relation: string;
  valid_at: Date | null;
  invalid_at: Date | null;
  weight: number;
  confidence: number;
  mention_count: number;
};

export type MergeResult = {
  merged: string[];
  repointed: number;
  collapsed: Array<{ edge_id: string; into: string | null }>;
};

const keyOf = (src: string, relation: string, dst: string, validAt: Date | null) =>
  `${src}\u0000${relation}\u0000${dst}\u0000${validAt?.toISOString() ?? "-infinity"}`;

/**
 * Merges the still-live `dupes` into `canon` (which must be live). Current edges are repointed; one
 * that would become identical (edges_identity: same ends, relation and valid_at — so overlapping
 * validity) to an edge already there is expired as `merged` with `superseded_by` the survivor,
 * which takes its sources, mentions and the larger weight; edges with different validity stay
 * separate. Self-loops a merge would create are expired. Expired edges are repointed too, so the
 * survivor keeps the history.
 */
export async function mergeInto(
  tx: Tx,
  orgId: string,
  canon: string,
  dupes: string[],
): Promise<MergeResult> {
  const live = await tx<
    { memo_id: string }[]
  >`SELECT memo_id FROM memos WHERE memo_id = ANY(${[canon, ...dupes]}::text[]) AND retired_at IS NULL FOR UPDATE`;
  const liveIds = new Set(live.map((r) => r.memo_id));
  const merged = dupes.filter((d) => liveIds.has(d) && d !== canon);
  if (!liveIds.has(canon) || merged.length === 0)
    return { merged: [], repointed: 0, collapsed: [] };
  const ends = [canon, ...merged];
  const edges = await tx<LiveEdge[]>`
    SELECT edge_id, src_memo_id, dst_memo_id, relation, valid_at, invalid_at, weight, confidence, mention_count FROM edges
    WHERE (src_memo_id = ANY(${ends}::text[]) OR dst_memo_id = ANY(${ends}::text[])) AND expired_at IS NULL
    ORDER BY (src_memo_id = ${canon} OR dst_memo_id = ${canon}) DESC, weight DESC, edge_id FOR UPDATE`;
  const gone = new Set(merged);
  const to = (id: string) => (gone.has(id) ? canon : id);
  const survivors = new Map<string, LiveEdge>();
  const moves: Array<{ edge_id: string; src: string; dst: string }> = [];
  const collapsed: Array<{ edge_id: string; into: string | null }> = [];
  const absorbed = new Map<string, { weight: number; confidence: number; mentions: number }>();
  for (const e of edges) {
    const src = to(e.src_memo_id);
    const dst = to(e.dst_memo_id);
    const touched = src !== e.src_memo_id || dst !== e.dst_memo_id;
    if (touched && src === dst) {
      collapsed.push({ edge_id: e.edge_id, into: null });
      continue;
    }
    const key = keyOf(src, e.relation, dst, e.valid_at);
    const survivor = survivors.get(key);
    if (survivor && touched) {
      collapsed.push({ edge_id: e.edge_id, into: survivor.edge_id });
      const a = absorbed.get(survivor.edge_id) ?? {
        weight: survivor.weight,
        confidence: survivor.confidence,
        mentions: 0,
      };
      absorbed.set(survivor.edge_id, {
        weight: Math.max(a.weight, e.weight),
        confidence: Math.max(a.confidence, e.confidence),
        mentions: a.mentions + e.mention_count,
      });
      continue;
    }
    if (!survivor) survivors.set(key, e);
    if (touched) moves.push({ edge_id: e.edge_id, src, dst });
  }
  if (collapsed.length > 0) {
    const ids = collapsed.map((c) => c.edge_id);
    await tx`UPDATE edges e SET expired_at = now(), expired_reason = 'merged', superseded_by = v.survivor
      FROM unnest(${ids}::text[], ${collapsed.map((c) => c.into)}::text[]) AS v(edge_id, survivor)
      WHERE e.edge_id = v.edge_id AND e.expired_at IS NULL`;
    await tx`INSERT INTO edge_sources (org_id, edge_id, memory_id, memory_version, char_start, char_end, extractor, created_at)
      SELECT s.org_id, v.survivor, s.memory_id, s.memory_version, s.char_start, s.char_end, s.extractor, s.created_at
      FROM edge_sources s JOIN unnest(${ids}::text[], ${collapsed.map((c) => c.into)}::text[]) AS v(edge_id, survivor) ON s.edge_id = v.edge_id
      WHERE v.survivor IS NOT NULL ON CONFLICT DO NOTHING`;
  }
  if (absorbed.size > 0) {
    const ids = [...absorbed.keys()];
    await tx`UPDATE edges e SET weight = v.weight, confidence = v.confidence, mention_count = e.mention_count + v.mentions
      FROM unnest(${ids}::text[], ${ids.map((id) => absorbed.get(id)!.weight)}::real[], ${ids.map((id) => absorbed.get(id)!.confidence)}::real[], ${ids.map((id) => absorbed.get(id)!.mentions)}::int[])
        AS v(edge_id, weight, confidence, mentions)
      WHERE e.edge_id = v.edge_id`;
  }
  if (moves.length > 0) {
    await tx`UPDATE edges e SET src_memo_id = v.src, dst_memo_id = v.dst
      FROM unnest(${moves.map((m) => m.edge_id)}::text[], ${moves.map((m) => m.src)}::text[], ${moves.map((m) => m.dst)}::text[]) AS v(edge_id, src, dst)
      WHERE e.edge_id = v.edge_id`;
  }
  // History follows the survivor: expired edges are outside edges_identity, so they move freely.
  await tx`UPDATE edges SET src_memo_id = ${canon} WHERE src_memo_id = ANY(${merged}::text[]) AND expired_at IS NOT NULL`;
  await tx`UPDATE edges SET dst_memo_id = ${canon} WHERE dst_memo_id = ANY(${merged}::text[]) AND expired_at IS NOT NULL`;

  // Provenance and names: the survivor is grounded in every memory its duplicates were, and answers
  // to their names.
  await tx`WITH added AS (
      INSERT INTO memo_sources (org_id, memo_id, memory_id, memory_version, created_at)
      SELECT org_id, ${canon}, memory_id, memory_version, created_at FROM memo_sources WHERE memo_id = ANY(${merged}::text[])
      ON CONFLICT DO NOTHING RETURNING 1)
    UPDATE memos SET mention_count = mention_count + (SELECT count(*) FROM added)::int WHERE memo_id = ${canon}`;
  await tx`INSERT INTO memo_aliases (org_id, agent_id, normalized_alias, memo_type, memo_id)
    SELECT DISTINCT ${orgId}::text, c.agent_id, n.alias, t.memo_type, c.memo_id
    FROM memos c
    CROSS JOIN LATERAL (
      SELECT d.normalized_name AS alias FROM memos d WHERE d.memo_id = ANY(${merged}::text[])
      UNION SELECT a.normalized_alias FROM memo_aliases a WHERE a.memo_id = ANY(${merged}::text[])) AS n
    CROSS JOIN LATERAL (SELECT c.memo_type UNION SELECT d.memo_type FROM memos d WHERE d.memo_id = ANY(${merged}::text[])) AS t
    WHERE c.memo_id = ${canon} AND n.alias <> c.normalized_name
    ON CONFLICT DO NOTHING`;
  await tx`UPDATE memos c SET
      aliases = (SELECT coalesce(array_agg(DISTINCT x ORDER BY x), '{}') FROM (
        SELECT unnest(c.aliases) AS x UNION SELECT d.name FROM memos d WHERE d.memo_id = ANY(${merged}::text[])
        UNION SELECT unnest(d.aliases) FROM memos d WHERE d.memo_id = ANY(${merged}::text[])) AS all_names WHERE x <> c.name),
      ontology_uri = coalesce(c.ontology_uri, (SELECT d.ontology_uri FROM memos d WHERE d.memo_id = ANY(${merged}::text[]) AND d.ontology_uri IS NOT NULL ORDER BY d.memo_id LIMIT 1)),
      description = coalesce(c.description, (SELECT d.description FROM memos d WHERE d.memo_id = ANY(${merged}::text[]) AND d.description IS NOT NULL ORDER BY d.memo_id LIMIT 1)),
      updated_at = now()
    WHERE c.memo_id = ${canon}`;
  await tx`UPDATE memos SET merged_into = ${canon}, retired_at = now(), retired_reason = 'merged', updated_at = now()
    WHERE memo_id = ANY(${merged}::text[]) AND retired_at IS NULL`;
  // Earlier tombstones pointing at a memo merged now point straight at the survivor.
  await tx`UPDATE memos SET merged_into = ${canon} WHERE merged_into = ANY(${merged}::text[])`;
  return { merged, repointed: moves.length, collapsed };
}
