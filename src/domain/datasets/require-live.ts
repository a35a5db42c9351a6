// Writers into a dataset (store, batch, ingest) check, inside their own transaction, that it exists
// and is live, and hold a share lock on it until they commit so a concurrent DELETE cannot miss
// their rows.
import { findDataset } from "../../data/queries/datasets/datasets";
import type { Tx } from "../../data/pools";
import { validationFailed, type FieldProblem } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";

export type DatasetReference = { datasetId: string; path: string };

/** Throws a 422 naming every field whose dataset is unknown (or another tenant's) or deleted. */
export async function requireLiveDatasets(tx: Tx, references: DatasetReference[]): Promise<void> {
  const verdicts = new Map<string, string | null>();
  for (const id of new Set(references.map((r) => r.datasetId)).values()) {
    const row = looksLikeId("ds", id) ? await findDataset(tx, id, "share") : null;
    verdicts.set(
      id,
      !row
        ? "is not a dataset of this tenant (create one with POST /v1/datasets)"
        : row.deleted_at !== null
          ? "names a deleted dataset"
          : null,
    );
  }
  const problems: FieldProblem[] = references.flatMap((r) => {
    const message = verdicts.get(r.datasetId);
    return message ? [{ path: r.path, message }] : [];
  });
  if (problems.length > 0) throw validationFailed(problems);
}
