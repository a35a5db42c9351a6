// ingest_sources (one row per distinct document) and ingest_chunks (chunk → memory); tenant
// transactions only.
import type { Tx } from "../../pools";

export type SourceRow = {
  source_id: string;
  job_id: string;
  agent_id: string;
  dataset_id: string | null;
  kind: string;
  uri: string | null;
  filename: string | null;
  mime_type: string | null;
  loader: string;
  byte_size: number;
  content_hash: Uint8Array;
  chunk_count: number | null;
  created_at: Date;
  completed_at: Date | null;
};

export type NewSource = Omit<SourceRow, "chunk_count" | "created_at" | "completed_at"> & {
  org_id: string;
};

/**
 * Inserts the source, or returns the row that already holds this (agent, dataset, content hash),
 * locked so concurrent claimers of the same document serialise on it. `created` says which
 * happened.
 */
export async function claimSource(
  tx: Tx,
  source: NewSource,
): Promise<{ row: SourceRow; created: boolean }> {
  const inserted = await tx<
    SourceRow[]
  >`INSERT INTO ingest_sources ${tx({ ...source, byte_size: String(source.byte_size) as never })}
    ON CONFLICT (org_id, agent_id, coalesce(dataset_id, ''), content_hash) DO NOTHING RETURNING *`;
  if (inserted[0]) return { row: inserted[0], created: true };
  const rows = await tx<
    SourceRow[]
  >`SELECT * FROM ingest_sources WHERE agent_id = ${source.agent_id}
    AND coalesce(dataset_id, '') = ${source.dataset_id ?? ""} AND content_hash = ${source.content_hash} FOR UPDATE`;
  return { row: rows[0]!, created: false };
}

export async function lockSource(tx: Tx, sourceId: string): Promise<SourceRow | null> {
  const rows = await tx<
    SourceRow[]
  >`SELECT * FROM ingest_sources WHERE source_id = ${sourceId} FOR UPDATE`;
  return rows[0] ?? null;
}

export async function adoptSource(tx: Tx, sourceId: string, jobId: string): Promise<void> {
  await tx`UPDATE ingest_sources SET job_id = ${jobId} WHERE source_id = ${sourceId}`;
}

export async function findSourceOfJob(tx: Tx, jobId: string): Promise<SourceRow | null> {
  const rows = await tx<
    SourceRow[]
  >`SELECT * FROM ingest_sources WHERE job_id = ${jobId} ORDER BY created_at LIMIT 1`;
  return rows[0] ?? null;
}

/**
 * Chunks are stored in order, whole batches at a time, so the count is also the next index to
 * store.
 */
export async function countStoredChunks(tx: Tx, sourceId: string): Promise<number> {
  const [row] = await tx<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM ingest_chunks WHERE source_id = ${sourceId}`;
  return row!.n;
}

export async function insertChunkLinks(
  tx: Tx,
  orgId: string,
  sourceId: string,
  links: Array<{ chunk_index: number; memory_id: string }>,
): Promise<void> {
  if (links.length === 0) return;
  await tx`INSERT INTO ingest_chunks ${tx(links.map((l) => ({ org_id: orgId, source_id: sourceId, ...l })))}`;
}

/** Memory ids of a source in chunk order; `limit` bounds what a job view returns. */
export async function sourceMemoryIds(tx: Tx, sourceId: string, limit?: number): Promise<string[]> {
  const rows = await tx<
    { memory_id: string }[]
  >`SELECT memory_id FROM ingest_chunks WHERE source_id = ${sourceId}
    ORDER BY chunk_index ${limit === undefined ? tx`` : tx`LIMIT ${limit}`}`;
  return rows.map((r) => r.memory_id);
}

export async function completeSource(tx: Tx, sourceId: string, chunkCount: number): Promise<void> {
  await tx`UPDATE ingest_sources SET chunk_count = ${chunkCount}, completed_at = now() WHERE source_id = ${sourceId}`;
}
