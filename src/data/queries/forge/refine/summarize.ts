// The summarize pass's reads (an agent's live memos and current edges in scope, its live SUMMARY
// memos) and writes (a SUMMARY memo with SUMMARIZES edges to its members and the memories its text
// quotes; retiring summaries whose cluster no longer exists).
import type { Tx } from "../../../pools";
import { memoInScope, type RefineScope } from "./scope";

export type ClusterMemo = {
  memo_id: string;
  memo_type: string;
  name: string;
  updated_at: Date;
  mention_count: number;
};
export type ClusterEdge = {
  edge_id: string;
  src_memo_id: string;
  dst_memo_id: string;
  relation: string;
  fact: string;
  weight: number;
  confidence: number;
};

export async function clusterMemos(
  tx: Tx,
  scope: RefineScope,
  agentId: string,
): Promise<ClusterMemo[]> {
  return tx<
    ClusterMemo[]
  >`SELECT m.memo_id, m.memo_type, m.name, m.updated_at, m.mention_count FROM memos m
    WHERE m.agent_id = ${agentId} AND m.retired_at IS NULL AND m.memo_type <> 'SUMMARY' ${memoInScope(tx, scope, "m")}
    ORDER BY m.memo_id`;
}

export async function clusterEdges(tx: Tx, agentId: string): Promise<ClusterEdge[]> {
  return tx<
    ClusterEdge[]
  >`SELECT edge_id, src_memo_id, dst_memo_id, relation, fact, weight, confidence FROM edges
    WHERE agent_id = ${agentId} AND expired_at IS NULL AND relation <> 'SUMMARIZES' ORDER BY edge_id`;
}

export type LiveSummary = {
  memo_id: string;
  name: string;
  cluster_hash: string;
  members: string[];
};

/**
 * The agent's live SUMMARY memos written by summarize, with their hash (hex) and current members.
 */
export async function liveSummaries(tx: Tx, agentId: string): Promise<LiveSummary[]> {
  return tx<LiveSummary[]>`SELECT m.memo_id, m.name, encode(m.cluster_hash, 'hex') AS cluster_hash,
      coalesce((SELECT array_agg(e.dst_memo_id ORDER BY e.dst_memo_id) FROM edges e WHERE e.src_memo_id = m.memo_id AND e.relation = 'SUMMARIZES' AND e.expired_at IS NULL), '{}') AS members
    FROM memos m WHERE m.agent_id = ${agentId} AND m.memo_type = 'SUMMARY' AND m.origin = 'summary' AND m.retired_at IS NULL AND m.cluster_hash IS NOT NULL
    ORDER BY m.memo_id`;
}

export async function summaryWithHash(
  tx: Tx,
  agentId: string,
  hashHex: string,
): Promise<string | null> {
  const [row] = await tx<
    { memo_id: string }[]
  >`SELECT memo_id FROM memos WHERE agent_id = ${agentId} AND memo_type = 'SUMMARY'
    AND retired_at IS NULL AND cluster_hash = decode(${hashHex}, 'hex')`;
  return row?.memo_id ?? null;
}

export type NewSummary = {
  memo_id: string;
  agent_id: string;
  name: string;
  normalized_name: string;
  description: string;
  hash_hex: string;
  properties: Record<string, unknown>;
  members: Array<{ memo_id: string; name: string; edge_id: string }>;
  quoted_edges: string[];
};

/**
 * Writes one SUMMARY memo, its SUMMARIZES edges (structural) and memo_sources from the quoted
 * facts' sources.
 */
export async function insertSummary(tx: Tx, orgId: string, s: NewSummary): Promise<void> {
  await tx`INSERT INTO memos (org_id, memo_id, agent_id, memo_type, name, normalized_name, description, properties, origin, cluster_hash, mention_count)
    VALUES (${orgId}, ${s.memo_id}, ${s.agent_id}, 'SUMMARY', ${s.name}, ${s.normalized_name}, ${s.description}, ${tx.json(s.properties as never)}, 'summary', decode(${s.hash_hex}, 'hex'), 0)`;
  await tx`INSERT INTO edges ${tx(
    s.members.map((m) => ({
      org_id: orgId,
      edge_id: m.edge_id,
      agent_id: s.agent_id,
      src_memo_id: s.memo_id,
      dst_memo_id: m.memo_id,
      relation: "SUMMARIZES",
      fact: `${s.name} summarizes ${m.name}`,
      origin: "structural",
      confidence: 1,
      weight: 0.5,
      mention_count: 0,
    })),
  )}`;
  if (s.quoted_edges.length > 0) {
    await tx`WITH added AS (
        INSERT INTO memo_sources (org_id, memo_id, memory_id, memory_version)
        SELECT DISTINCT ${orgId}::text, ${s.memo_id}::text, memory_id, memory_version FROM edge_sources WHERE edge_id = ANY(${s.quoted_edges}::text[])
        ON CONFLICT DO NOTHING RETURNING 1)
      UPDATE memos SET mention_count = (SELECT count(*) FROM added)::int WHERE memo_id = ${s.memo_id}`;
  }
}

/** Retires SUMMARY memos (stale_summary) and expires their SUMMARIZES edges (superseded). */
export async function retireSummaries(tx: Tx, memoIds: string[]): Promise<void> {
  if (memoIds.length === 0) return;
  await tx`UPDATE memos SET retired_at = now(), retired_reason = 'stale_summary', updated_at = now()
    WHERE memo_id = ANY(${memoIds}::text[]) AND memo_type = 'SUMMARY' AND retired_at IS NULL`;
  await tx`UPDATE edges SET expired_at = now(), expired_reason = 'superseded'
    WHERE src_memo_id = ANY(${memoIds}::text[]) AND relation = 'SUMMARIZES' AND expired_at IS NULL`;
}
