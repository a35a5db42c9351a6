// Ingest job rows (jobs.kind = 'ingest') and the distill jobs they chain; tenant transactions only.
import type { Tx } from "../../pools";
import type { JobRow } from "../jobs/jobs";

export type IngestJobRow = JobRow & {
  parent_job_id: string | null;
  progress: Record<string, unknown>;
  dataset_id: string | null;
  batch_id: string | null;
};

export type NewIngestJob = {
  org_id: string;
  job_id: string;
  payload: Record<string, unknown>;
  dataset_id: string | null;
  batch_id: string | null;
  state: "queued" | "awaiting_upload";
};

export async function insertIngestJob(tx: Tx, job: NewIngestJob): Promise<IngestJobRow> {
  const rows = await tx<IngestJobRow[]>`
    INSERT INTO jobs (org_id, job_id, kind, state, payload, dataset_id, batch_id)
    VALUES (${job.org_id}, ${job.job_id}, 'ingest', ${job.state}, ${tx.json(job.payload as never)}, ${job.dataset_id}, ${job.batch_id})
    ON CONFLICT (org_id, job_id) DO NOTHING RETURNING *`;
  return rows[0] ?? (await findIngestJob(tx, job.job_id))!;
}

export async function findIngestJob(
  tx: Tx,
  jobId: string,
  lock = false,
): Promise<IngestJobRow | null> {
  const rows = await tx<
    IngestJobRow[]
  >`SELECT * FROM jobs WHERE job_id = ${jobId} AND kind = 'ingest' ${lock ? tx`FOR UPDATE` : tx``}`;
  return rows[0] ?? null;
}

/**
 * Direct upload: the object arrived; the job joins the queue with what finalize learnt about it.
 */
export async function queueUploadedJob(
  tx: Tx,
  jobId: string,
  payload: Record<string, unknown>,
): Promise<boolean> {
  const rows =
    await tx`UPDATE jobs SET state = 'queued', payload = ${tx.json(payload as never)}, updated_at = now()
    WHERE job_id = ${jobId} AND state = 'awaiting_upload' RETURNING 1`;
  return rows.length === 1;
}

/** Upload jobs whose URL expired this long ago without a finalize. */
export async function findAbandonedUploads(
  tx: Tx,
  graceSeconds: number,
  limit: number,
): Promise<IngestJobRow[]> {
  return tx<IngestJobRow[]>`SELECT * FROM jobs WHERE state = 'awaiting_upload'
    AND (payload #>> '{source,expires_at}')::timestamptz < now() - make_interval(secs => ${graceSeconds})
    ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
}

/** False when the job already left awaiting_upload (finalized, or expired by someone else). */
export async function failAbandonedUpload(tx: Tx, jobId: string, reason: string): Promise<boolean> {
  const rows =
    await tx`UPDATE jobs SET state = 'failed', error = ${reason}, result = ${tx.json({ reason: "upload-expired" } as never)},
    finished_at = now(), updated_at = now() WHERE job_id = ${jobId} AND state = 'awaiting_upload' RETURNING 1`;
  return rows.length === 1;
}

/** The distill job an ingest job chained, if any (the chain is created at most once). */
export async function findChainedDistill(tx: Tx, ingestJobId: string): Promise<JobRow | null> {
  const rows = await tx<
    JobRow[]
  >`SELECT * FROM jobs WHERE parent_job_id = ${ingestJobId} AND kind = 'distill' ORDER BY created_at LIMIT 1`;
  return rows[0] ?? null;
}

export async function insertChainedDistill(
  tx: Tx,
  job: {
    org_id: string;
    job_id: string;
    parent_job_id: string;
    agent_id: string;
    memory_ids: string[];
  },
): Promise<void> {
  await tx`INSERT INTO jobs (org_id, job_id, kind, payload, parent_job_id)
    VALUES (${job.org_id}, ${job.job_id}, 'distill', ${tx.json({ agent_id: job.agent_id, memory_ids: job.memory_ids } as never)}, ${job.parent_job_id})`;
}

/** Child jobs of a web-search batch, in rank order (payload.rank). */
export async function listBatchJobs(tx: Tx, batchId: string): Promise<IngestJobRow[]> {
  return tx<
    IngestJobRow[]
  >`SELECT * FROM jobs WHERE batch_id = ${batchId} AND kind = 'ingest' AND payload #>> '{source,kind}' = 'url'
    ORDER BY (payload ->> 'rank')::int NULLS LAST, created_at`;
}
