// One bounded step of a subject erasure, in one tenant transaction: forget the next memories
// (their postings, counters, idempotency answers and sole-source graph rows go the forget way),
// then empty every version of them and everything derived from them, and record the step in the
// job's progress.
import type { Tx } from "../../data/pools";
import { emptyGraphRows, emptyIngestRecords } from "../../data/queries/erasure/derived";
import {
  deleteMemoryTraces,
  emptyVersions,
  nextErasableMemories,
  type Subject,
} from "../../data/queries/erasure/memories";
import { deleteAnswersNaming } from "../../data/queries/idempotency/keys";
import type { Actor } from "../actor";
import { derivedRowsOf } from "../forget-proof/certificate";
import { saveJobProgress } from "../jobs/progress";
import { forgetMemories } from "../memories/forget";
import { addCounts, type ErasureProgress } from "./progress";

/** Memories per step: one step's locks and rewrites stay short next to live traffic. */
export const ERASURE_CHUNK = 200;

/** Runs one step; false when nothing of the subject was left to erase. */
export async function eraseNextChunk(
  tx: Tx,
  actor: Actor,
  jobId: string,
  agentId: string,
  subject: Subject,
  progress: ErasureProgress,
): Promise<{ more: boolean; progress: ErasureProgress }> {
  const ids = await nextErasableMemories(tx, agentId, subject, ERASURE_CHUNK);
  if (ids.length === 0) return { more: false, progress };
  // Before forget, which would keep them as tombstones: erasure takes the answers and their keys.
  const answers = await deleteAnswersNaming(tx, ids);
  const forgot = await forgetMemories(tx, actor, ids, "erasure", { agentId });
  const derived = derivedRowsOf(forgot.derived);
  const retired = forgot.derived;
  await emptyGraphRows(
    tx,
    retired.memos.map((m) => m.memo_id),
    retired.edges.map((e) => e.edge_id),
  );
  const versions = await emptyVersions(tx, ids, jobId);
  const traces = await deleteMemoryTraces(tx, ids);
  const ingest = await emptyIngestRecords(tx, ids);
  const next: ErasureProgress = {
    counts: addCounts(progress.counts, {
      memories: ids.length,
      memory_versions: versions,
      memories_forgotten: forgot.forgotten.length,
      edges_retired: forgot.derived.edges.length,
      memos_retired: forgot.derived.memos.length,
      idempotency_answers: answers,
      ...traces,
      ...ingest,
    }),
    derived: [...progress.derived, ...derived],
  };
  await saveJobProgress(tx, jobId, next);
  return { more: true, progress: next };
}
