// datasets rows and the per-dataset counts; tenant transactions only.
import type { Tx } from "../../pools";

export type DatasetRow = {
  dataset_id: string;
  name: string;
  description: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  detached_memory_count: number | null;
};
export type DatasetCounts = { documents: number; memories: number; jobs: number };

const COLUMNS = [
  "dataset_id",
  "name",
  "description",
  "metadata",
  "created_at",
  "updated_at",
  "deleted_at",
  "detached_memory_count",
] as const;

/** null when a live dataset of the tenant already has this name (case-insensitive). */
export async function insertDataset(
  tx: Tx,
  row: {
    org_id: string;
    dataset_id: string;
    name: string;
    description: string | null;
    metadata: Record<string, unknown>;
  },
): Promise<DatasetRow | null> {
  const rows = await tx<DatasetRow[]>`
    INSERT INTO datasets ${tx({ ...row, metadata: tx.json(row.metadata as never) })}
    ON CONFLICT (org_id, lower(name)) WHERE deleted_at IS NULL DO NOTHING
    RETURNING ${tx(COLUMNS)}`;
  return rows[0] ?? null;
}

/**
 * `lock` = "share": store and ingest hold it while they write into the dataset, so a concurrent
 * DELETE waits for them (and they see its deleted_at if it went first); "update" is the DELETE's
 * own lock.
 */
export async function findDataset(
  tx: Tx,
  datasetId: string,
  lock: "share" | "update" | null = null,
): Promise<DatasetRow | null> {
  const rows = await tx<
    DatasetRow[]
  >`SELECT ${tx(COLUMNS)} FROM datasets WHERE dataset_id = ${datasetId}
    ${lock === "share" ? tx`FOR SHARE` : lock === "update" ? tx`FOR UPDATE` : tx``}`;
  return rows[0] ?? null;
}

/**
 * Oldest first, so a page boundary never moves as new datasets arrive; deleted ones only on
 * request. The cursor is the last dataset seen: its own (microsecond) created_at is looked up,
 * never rounded.
 */
export async function listDatasets(
  tx: Tx,
  limit: number,
  afterDatasetId: string | undefined,
  includeDeleted: boolean,
): Promise<DatasetRow[]> {
  return tx<DatasetRow[]>`
    SELECT ${tx(COLUMNS)} FROM datasets
    WHERE ${includeDeleted ? tx`true` : tx`deleted_at IS NULL`}
      ${afterDatasetId ? tx`AND (created_at, dataset_id) > (SELECT created_at, dataset_id FROM datasets WHERE dataset_id = ${afterDatasetId})` : tx``}
    ORDER BY created_at, dataset_id LIMIT ${limit}`;
}

export async function countDatasetContents(tx: Tx, datasetId: string): Promise<DatasetCounts> {
  const [row] = await tx<DatasetCounts[]>`SELECT
    (SELECT count(*)::int FROM ingest_sources WHERE dataset_id = ${datasetId} AND completed_at IS NOT NULL) AS documents,
    (SELECT count(*)::int FROM memories WHERE dataset_id = ${datasetId} AND valid_to IS NULL) AS memories,
    (SELECT count(*)::int FROM jobs WHERE dataset_id = ${datasetId} AND kind = 'ingest') AS jobs`;
  return row!;
}

/**
 * Detaches the current versions in place and marks the dataset deleted, recording how many were
 * detached.
 */
export async function deleteDatasetDetaching(tx: Tx, datasetId: string): Promise<DatasetRow> {
  const rows = await tx<DatasetRow[]>`
    WITH detached AS (
      UPDATE memories SET dataset_id = NULL WHERE dataset_id = ${datasetId} AND valid_to IS NULL RETURNING 1
    )
    UPDATE datasets SET deleted_at = now(), updated_at = now(), detached_memory_count = (SELECT count(*)::int FROM detached)
    WHERE dataset_id = ${datasetId} RETURNING ${tx(COLUMNS)}`;
  return rows[0]!;
}

/**
 * Current memory ids of a dataset (the detach locks them first, like every other memory writer).
 */
export async function currentDatasetMemoryIds(tx: Tx, datasetId: string): Promise<string[]> {
  const rows = await tx<
    { memory_id: string }[]
  >`SELECT memory_id FROM memories WHERE dataset_id = ${datasetId} AND valid_to IS NULL`;
  return rows.map((r) => r.memory_id);
}
