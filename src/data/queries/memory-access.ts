// Access tracking (last_accessed_at, access_count) derived from recall's audit rows: the audit drain
// applies them in the transaction that moves those rows into the chain, so each recall is counted exactly
// once, durably, and off the recall's own path. A memory whose current row is locked right then (a PATCH
// or forget under way) is skipped, as it always was.
import type { Tx } from "../pools";

export async function applyRecallAccess(tx: Tx, orgId: string, pendingIds: string[]): Promise<void> {
  if (pendingIds.length === 0) return;
  await tx`
    WITH hits AS (
      SELECT t.memory_id, count(*)::int AS n, max(p.occurred_at) AS at
      FROM audit_pending p CROSS JOIN LATERAL unnest(p.target_ids) AS t(memory_id)
      WHERE p.id = ANY(${pendingIds}::bigint[]) AND p.operation = 'recall'
      GROUP BY t.memory_id
    ), current AS (
      SELECT m.org_id, m.memory_id, m.version, hits.n, hits.at FROM memories m JOIN hits USING (memory_id)
      WHERE m.org_id = ${orgId} AND m.valid_to IS NULL
      ORDER BY m.memory_id
      FOR UPDATE OF m SKIP LOCKED
    )
    UPDATE memories AS m SET access_count = m.access_count + current.n,
      last_accessed_at = GREATEST(m.last_accessed_at, current.at)
    FROM current
    WHERE m.org_id = current.org_id AND m.memory_id = current.memory_id AND m.version = current.version`;
}
