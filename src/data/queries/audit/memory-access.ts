// Access counters (sql/0133: access_count, last_accessed_at per memory) derived from recall's audit
// rows: the audit drain applies them in the transaction that moves those rows into the chain, so
// each recall is counted exactly once, durably, and off the recall's own path. Only memories still
// current are counted; one whose current row is locked right then (a PATCH or forget under way) is
// skipped, as it always was, and the lock keeps a forget from missing a counter row written under
// it.
import type { Tx } from "../../pools";

/** One counter of the `memories` row in scope, as a scalar subquery (no row yet: null). */
export function accessColumn(tx: Tx, column: "access_count" | "last_accessed_at") {
  const value = column === "access_count" ? tx`a.access_count` : tx`a.last_accessed_at`;
  return tx`(SELECT ${value} FROM memory_access a WHERE a.org_id = memories.org_id AND a.memory_id = memories.memory_id)`;
}

export async function applyRecallAccess(
  tx: Tx,
  orgId: string,
  pendingIds: string[],
): Promise<void> {
  if (pendingIds.length === 0) return;
  await tx`
    WITH hits AS (
      SELECT t.memory_id, count(*)::int AS n, max(p.occurred_at) AS at
      FROM audit_pending p CROSS JOIN LATERAL unnest(p.target_ids) AS t(memory_id)
      WHERE p.id = ANY(${pendingIds}::bigint[]) AND p.operation = 'recall'
      GROUP BY t.memory_id
    ), live AS (
      SELECT m.memory_id FROM memories m
      WHERE m.org_id = ${orgId} AND m.valid_to IS NULL AND m.memory_id IN (SELECT memory_id FROM hits)
      ORDER BY m.memory_id
      FOR SHARE OF m SKIP LOCKED
    )
    INSERT INTO memory_access (org_id, memory_id, access_count, last_accessed_at)
    SELECT ${orgId}, hits.memory_id, hits.n, hits.at FROM hits JOIN live USING (memory_id)
    ON CONFLICT (org_id, memory_id) DO UPDATE SET
      access_count = memory_access.access_count + EXCLUDED.access_count,
      last_accessed_at = GREATEST(memory_access.last_accessed_at, EXCLUDED.last_accessed_at)`;
}
