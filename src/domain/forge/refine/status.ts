// GET /v1/refine/{job_id}: the job's state, each pass's counts and duration, and a page of the
// changes it made (or, for a dry run, would make), each with its reason.
import type { Database } from "../../../data/pools";
import { readJob, type JobState } from "../../jobs/claim";
import { listRefineChanges } from "../../../data/queries/forge/refine/runs";
import { withTenant } from "../../../data/with-tenant";
import type { Actor } from "../../actor";
import { decodeCursor, encodeCursor } from "../../../lib/cursor";
import { notFound } from "../../../lib/errors";
import { looksLikeId } from "../../../lib/ids";
import type { PassName } from "./pass-names";
import { progressOf, type PassProgress, type RefineRequest } from "./progress";

export type RefineStatusQuery = { limit?: number; cursor?: string };

const EMPTY_PASS: PassProgress = {
  state: "pending",
  counts: {},
  duration_ms: 0,
  batches: 0,
  notes: [],
};

export async function getRefineStatus(
  db: Database,
  actor: Actor,
  jobId: string,
  query: RefineStatusQuery,
) {
  if (!looksLikeId("job", jobId)) throw notFound(`Refine job ${jobId}`);
  const limit = query.limit ?? 50;
  const afterSeq = query.cursor
    ? decodeCursor(query.cursor, (v) => {
        if (typeof v[0] !== "number" || !Number.isSafeInteger(v[0]) || v[0] < 0)
          throw new Error("bad seq");
        return { seq: v[0] };
      }).seq
    : 0;
  // The primary: a client polling the job it just created must see it.
  const found = await withTenant(db, actor.orgId, async (tx) => {
    const job = await readJob(tx, jobId);
    if (!job || job.kind !== "refine") return null;
    return { job, changes: await listRefineChanges(tx, jobId, afterSeq, limit + 1) };
  });
  if (!found) throw notFound(`Refine job ${jobId}`);
  const { job, changes } = found;
  const request = job.payload as unknown as RefineRequest;
  const progress = progressOf((job as { progress?: unknown }).progress, request.passes);
  const page = changes.slice(0, limit);
  return {
    job_id: job.job_id,
    // Only upload-backed ingest jobs wait for an upload; a refine row never enters that state.
    state: job.state as Exclude<JobState, "awaiting_upload">,
    trigger: request.trigger,
    agent_id: request.agent_id,
    dataset_id: request.dataset_id,
    dry_run: request.dry_run,
    passes: request.passes.map((name) => ({ name, ...(progress.passes[name] ?? EMPTY_PASS) })),
    changes_total: progress.seq,
    waiting_for: progress.waiting_for ?? null,
    error: job.error,
    attempts: job.attempts,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    changes: {
      items: page.map((c) => ({
        seq: c.seq,
        pass: c.pass as PassName,
        action: c.action,
        target_kind: c.target_kind,
        target_id: c.target_id,
        reason: String(c.detail.reason ?? ""),
        detail: c.detail,
        created_at: c.created_at,
      })),
      next_cursor: changes.length > limit ? encodeCursor([page[page.length - 1]!.seq]) : null,
    },
  };
}
