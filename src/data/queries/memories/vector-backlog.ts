// The vector backlog (sql/0134): current versions a batch store left out of the HNSW graph.
import type { Tx } from "../../pools";

/**
 * Puts up to `limit` waiting versions of the tenant into the graph: the update writes a new row
 * version, which enters every index of the table, the HNSW one included. Rows another writer holds
 * (a PATCH or forget in flight) are skipped for the next pass; a version closed meanwhile no longer
 * waits.
 */
export async function graphWaitingRows(tx: Tx, limit: number): Promise<number> {
  // By ctid, which the row lock keeps stable until commit: a join on the key let the planner,
  // misled by a backlog without statistics yet, compare every waiting row with every locked one (1
  // s for 200 of 6,000), and a recheck of the flags outside the subquery made it scan the backlog
  // again for each chunk.
  const rows = await tx`
    UPDATE memories SET vector_indexed = true
    WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM memories WHERE valid_to IS NULL AND NOT vector_indexed
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ))
    RETURNING 1`;
  return rows.length;
}

/** How many current versions of the tenant wait (one probe of memories_vector_backlog). */
export async function countWaitingRows(tx: Tx): Promise<number> {
  const [row] = await tx<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM memories WHERE valid_to IS NULL AND NOT vector_indexed`;
  return row!.n;
}
