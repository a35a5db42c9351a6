// Web-search batches (POST /v1/ingest/search): the query, the discovery job, and what the provider
// found.
import type { Tx } from "../../pools";

export type BatchResult = {
  rank: number;
  url: string;
  title: string | null;
  job_id: string | null;
  skipped: string | null;
};

export type IngestBatchRow = {
  org_id: string;
  batch_id: string;
  agent_id: string;
  dataset_id: string | null;
  query: string;
  max_results: number;
  provider: string;
  discovery_job_id: string;
  results: BatchResult[];
  created_at: Date;
  discovered_at: Date | null;
};

export async function insertBatch(
  tx: Tx,
  batch: Pick<
    IngestBatchRow,
    | "org_id"
    | "batch_id"
    | "agent_id"
    | "dataset_id"
    | "query"
    | "max_results"
    | "provider"
    | "discovery_job_id"
  >,
): Promise<void> {
  await tx`INSERT INTO ingest_batches (org_id, batch_id, agent_id, dataset_id, query, max_results, provider, discovery_job_id)
    VALUES (${batch.org_id}, ${batch.batch_id}, ${batch.agent_id}, ${batch.dataset_id}, ${batch.query}, ${batch.max_results}, ${batch.provider}, ${batch.discovery_job_id})`;
}

export async function findBatch(
  tx: Tx,
  batchId: string,
  lock = false,
): Promise<IngestBatchRow | null> {
  const rows = await tx<
    IngestBatchRow[]
  >`SELECT * FROM ingest_batches WHERE batch_id = ${batchId} ${lock ? tx`FOR UPDATE` : tx``}`;
  return rows[0] ?? null;
}

/** Records the discovery once; false when an earlier attempt already did. */
export async function recordDiscovery(
  tx: Tx,
  batchId: string,
  results: BatchResult[],
): Promise<boolean> {
  const rows =
    await tx`UPDATE ingest_batches SET results = ${tx.json(results as never)}, discovered_at = now()
    WHERE batch_id = ${batchId} AND discovered_at IS NULL RETURNING 1`;
  return rows.length === 1;
}
