// The prune pass: decay of unreinforced edges by half-life, expiry (never deletion) of those left
// under the threshold, and retirement of memos left with no live edge and no source. User-asserted
// and structural edges are neither decayed nor pruned; user memos are never retired.
import type { Tx } from "../../../pools";
import { edgeInScope, memoInScope, type RefineScope } from "./scope";

export type PruneSettings = { halfLifeSeconds: number; threshold: number; graceSeconds: number };
export type PruneRow = {
  edge_id: string;
  weight: number;
  decayed: number;
  relation: string;
  fact: string;
  prunable: boolean;
};

/**
 * The next batch of decayable edges after `afterId`, with the weight decay would give them now:
 * w · 0.5^(Δt / half-life), Δt since the latest of reinforcement, last decay and creation. Decaying
 * over two spans equals decaying once over their sum, so reruns and resumed runs change nothing
 * extra. `overlayJob` (dry runs) starts from the weight that job's reweight pass reported instead
 * of the stored one, and counts its reported signals as feedback received.
 */
export async function decayCandidates(
  tx: Tx,
  scope: RefineScope,
  s: PruneSettings,
  afterId: string | null,
  limit: number,
  overlayJob: string | null,
): Promise<PruneRow[]> {
  return tx<PruneRow[]>`
    SELECT edge_id, weight, decayed, relation, fact,
      decayed < ${s.threshold} AND (created_at < now() - make_interval(secs => ${s.graceSeconds}) OR judged) AS prunable
    FROM (
      SELECT e.edge_id, e.relation, e.fact, e.created_at, w.weight, w.judged,
        (w.weight * power(0.5, greatest(0, extract(epoch FROM (now() - greatest(e.last_reinforced_at, e.last_decayed_at, e.created_at))))::float8 / ${s.halfLifeSeconds}))::real AS decayed
      FROM edges e
      CROSS JOIN LATERAL (${
        overlayJob === null
          ? tx`SELECT e.weight, e.feedback_count > 0 AS judged`
          : tx`
        SELECT coalesce(c.weight, e.weight) AS weight, e.feedback_count > 0 OR coalesce(c.signals, 0) > 0 AS judged
        FROM (SELECT NULL) AS one LEFT JOIN LATERAL (SELECT (c.detail->>'to')::real AS weight, (c.detail->>'signals')::int AS signals FROM refine_changes c
          WHERE c.job_id = ${overlayJob} AND c.pass = 'reweight' AND c.target_id = e.edge_id ORDER BY c.seq DESC LIMIT 1) AS c ON true`
      }) AS w
      WHERE e.expired_at IS NULL AND e.origin NOT IN ('user', 'structural') ${afterId === null ? tx`` : tx`AND e.edge_id > ${afterId}`}
        ${edgeInScope(tx, scope, "e")}
      ORDER BY e.edge_id LIMIT ${limit}
    ) AS batch ORDER BY edge_id`;
}

/** Stores the decayed weights and expires the prunable edges with reason `pruned`. */
export async function applyDecayAndPrune(tx: Tx, rows: PruneRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx`UPDATE edges e SET weight = v.decayed, last_decayed_at = now()
    FROM unnest(${rows.map((r) => r.edge_id)}::text[], ${rows.map((r) => r.decayed)}::real[]) AS v(edge_id, decayed)
    WHERE e.edge_id = v.edge_id AND e.expired_at IS NULL`;
  const pruned = rows.filter((r) => r.prunable).map((r) => r.edge_id);
  if (pruned.length > 0) {
    await tx`UPDATE edges SET expired_at = now(), expired_reason = 'pruned' WHERE edge_id = ANY(${pruned}::text[]) AND expired_at IS NULL AND origin <> 'user'`;
  }
}

/**
 * Live memos after `afterId` with no current edge and no source left (never user memos).
 * `overlayJob` (dry runs) counts the edges that job would prune as gone.
 */
export async function orphanMemos(
  tx: Tx,
  scope: RefineScope,
  afterId: string | null,
  limit: number,
  overlayJob: string | null,
): Promise<Array<{ memo_id: string; name: string; memo_type: string }>> {
  const live = (
    column: "src_memo_id" | "dst_memo_id",
  ) => tx`SELECT 1 FROM edges e WHERE e.${tx(column)} = m.memo_id AND e.expired_at IS NULL
    ${overlayJob === null ? tx`` : tx`AND NOT EXISTS (SELECT 1 FROM refine_changes c WHERE c.job_id = ${overlayJob} AND c.pass = 'prune' AND c.target_id = e.edge_id)`}`;
  return tx`SELECT m.memo_id, m.name, m.memo_type FROM memos m
    WHERE m.retired_at IS NULL AND m.origin <> 'user' ${afterId === null ? tx`` : tx`AND m.memo_id > ${afterId}`} ${memoInScope(tx, scope, "m")}
      AND NOT EXISTS (${live("src_memo_id")}) AND NOT EXISTS (${live("dst_memo_id")})
      AND NOT EXISTS (SELECT 1 FROM memo_sources s WHERE s.memo_id = m.memo_id)
    ORDER BY m.memo_id LIMIT ${limit}`;
}

export async function retireMemos(
  tx: Tx,
  memoIds: string[],
  reason: "pruned" | "stale_summary",
): Promise<void> {
  if (memoIds.length === 0) return;
  await tx`UPDATE memos SET retired_at = now(), retired_reason = ${reason}, updated_at = now() WHERE memo_id = ANY(${memoIds}::text[]) AND retired_at IS NULL`;
}
