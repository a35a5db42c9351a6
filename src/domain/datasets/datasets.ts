// Datasets: created live, listed oldest first, read with counts, soft-deleted (final). Deleting
// detaches the dataset's current memories in place: they stay recallable, their history keeps the
// old dataset_id.
import {
  countDatasetContents,
  currentDatasetMemoryIds,
  deleteDatasetDetaching,
  findDataset,
  insertDataset,
  listDatasets,
  type DatasetCounts,
  type DatasetRow,
} from "../../data/queries/datasets/datasets";
import { lockMemories } from "../../data/queries/memories/memories";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import { conflict, notFound, validationFailed } from "../../lib/errors";
import { nulProblems } from "../../lib/nul-free";
import { checkMetadata, type MetadataLimits } from "../metadata";
import { looksLikeId, newId } from "../../lib/ids";

export type DatasetInput = {
  name: string;
  description?: string;
  metadata?: unknown;
};

export function datasetView(row: DatasetRow) {
  const { detached_memory_count: _count, ...rest } = row;
  return { ...rest, state: row.deleted_at === null ? ("active" as const) : ("deleted" as const) };
}

function withCounts(row: DatasetRow, counts: DatasetCounts) {
  return {
    ...datasetView(row),
    counts: { ...counts, detached_memories: row.detached_memory_count ?? 0 },
  };
}

/** Name, description and metadata must be storable (no NUL), metadata a JSON object: else 422. */
export async function createDataset(
  ports: { db: Database; config: MetadataLimits },
  actor: Actor,
  input: DatasetInput,
) {
  const problems = nulProblems(input, "");
  if (problems.length > 0) throw validationFailed(problems);
  const metadata = checkMetadata(ports.config, input.metadata);
  const row = await withTenant(ports.db, actor.orgId, async (tx) => {
    const inserted = await insertDataset(tx, {
      org_id: actor.orgId,
      dataset_id: newId("ds"),
      name: input.name,
      description: input.description ?? null,
      metadata,
    });
    if (!inserted)
      throw conflict(
        `A dataset named "${input.name}" already exists (names are unique among live datasets, ignoring case)`,
      );
    await recordAudit(tx, actor, {
      operation: "dataset.create",
      targetIds: [inserted.dataset_id],
      detail: { name: inserted.name },
    });
    return inserted;
  });
  return datasetView(row);
}

export async function readDataset(db: Database, actor: Actor, datasetId: string) {
  if (!looksLikeId("ds", datasetId)) throw notFound("Dataset");
  return withTenantRead(db, actor.orgId, async (tx) => {
    const row = await findDataset(tx, datasetId);
    if (!row) throw notFound("Dataset");
    return withCounts(row, await countDatasetContents(tx, datasetId));
  });
}

export async function listTenantDatasets(
  db: Database,
  actor: Actor,
  limit: number,
  cursor: string | undefined,
  includeDeleted: boolean,
) {
  const after = cursor
    ? decodeCursor(cursor, (v) => {
        if (typeof v[0] !== "string" || !looksLikeId("ds", v[0]))
          throw new Error("not a dataset cursor");
        return { dataset_id: v[0] };
      }).dataset_id
    : undefined;
  const rows = await withTenantRead(db, actor.orgId, (tx) =>
    listDatasets(tx, limit + 1, after, includeDeleted),
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => datasetView(row)),
    next_cursor: rows.length > limit && last ? encodeCursor([last.dataset_id]) : null,
  };
}

/**
 * Soft-deletes the dataset and detaches its current memories in place (no new version: membership
 * is not content, so nothing is re-embedded or re-distilled). The dataset row lock stops new writes
 * into it; the memory locks wait out in-flight PATCHes, whose new version the detach then sees.
 */
export async function deleteDataset(db: Database, actor: Actor, datasetId: string) {
  if (!looksLikeId("ds", datasetId)) throw notFound("Dataset");
  return withTenant(db, actor.orgId, async (tx) => {
    const current = await findDataset(tx, datasetId, "update");
    if (!current) throw notFound("Dataset");
    if (current.deleted_at !== null)
      throw conflict(
        `Dataset ${datasetId} was already deleted at ${current.deleted_at.toISOString()}`,
      );
    await lockMemories(tx, await currentDatasetMemoryIds(tx, datasetId));
    const deleted = await deleteDatasetDetaching(tx, datasetId);
    await recordAudit(tx, actor, {
      operation: "dataset.delete",
      targetIds: [datasetId],
      detail: { name: deleted.name, detached_memories: deleted.detached_memory_count },
    });
    return withCounts(deleted, await countDatasetContents(tx, datasetId));
  });
}
