// The vector backlog (sql/0134, docs/recall.md): a batch store writes its rows outside the HNSW
// graph, where VECTOR recall scores them exactly, and svc.generate_embedding puts them into the
// graph afterwards. One chunk per transaction, so a PATCH or forget of a waiting memory waits at
// most one chunk. Setting a flag is idempotent: a worker killed mid-chunk rolls it back and the
// next delivery takes it again.
import type { Database } from "../../data/pools";
import { countWaitingRows, graphWaitingRows } from "../../data/queries/memories/vector-backlog";
import { withTenant, withTenantRead } from "../../data/with-tenant";

export type BacklogStep = { graphed: number; remaining: number };

/**
 * At most `maxChunks` chunks of `chunk` versions for one tenant, `parallel` transactions at a time
 * (each locks its own rows; pgvector inserts into the graph from several backends at once).
 */
export async function graphBacklog(
  db: Database,
  orgId: string,
  chunk: number,
  maxChunks: number,
  parallel = 1,
): Promise<BacklogStep> {
  let graphed = 0;
  for (let taken = 0; taken < maxChunks; taken += parallel) {
    const counts = await Promise.all(
      Array.from({ length: Math.min(parallel, maxChunks - taken) }, () =>
        withTenant(db, orgId, (tx) => graphWaitingRows(tx, chunk)),
      ),
    );
    graphed += counts.reduce((a, b) => a + b, 0);
    if (counts.some((n) => n < chunk)) break;
  }
  const remaining = await withTenantRead(db, orgId, countWaitingRows);
  return { graphed, remaining };
}
