// The per-agent graph lock: every writer of one agent's memos and edges (a distill batch, the
// forget cascade) holds it for the rest of its transaction, so two writers never interleave on the
// same graph.
import type { Tx } from "../../pools";

/**
 * Sorted, so writers locking several agents cannot deadlock. Callers that also lock memories
 * (lockMemories) take those first: every transaction acquires memory locks before graph locks.
 */
export async function lockAgentGraphs(tx: Tx, agentIds: string[]): Promise<void> {
  const unique = [...new Set(agentIds)].sort();
  if (unique.length === 0) return;
  await tx`
    SELECT pg_advisory_xact_lock(k) FROM (
      SELECT hashtextextended('graph/' || svc_current_org() || '/' || a, 0) AS k, a
      FROM unnest(${unique}::text[]) AS a
    ) AS keys ORDER BY a`;
}
