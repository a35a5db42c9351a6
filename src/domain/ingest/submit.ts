// Creating ingest jobs: the row (the source of truth a client polls) and its submission audit row
// in one transaction, then the wake-up on the queue. A lost wake-up only delays the job:
// svc.ingest_watchdog re-enqueues queued rows nobody picked up.
import type { Ports } from "../ports/ports";
import { insertIngestJob, type IngestJobRow } from "../../data/queries/ingest/jobs";
import type { Tx } from "../../data/pools";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { requireLiveDatasets } from "../datasets/require-live";
import { validationFailed, type FieldProblem } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { nulProblems } from "../../lib/nul-free";
import type { IngestPayload, IngestSourceSpec } from "./payload";
import { urlProblem } from "./url-rules";

export type JobSpec = {
  agentId: string;
  datasetId: string | null;
  source: IngestSourceSpec;
  warnings?: string[];
  state?: "queued" | "awaiting_upload";
  batch?: { batchId: string; rank?: number; title?: string };
  jobId?: string;
};

/** Inserts the job row and its submission audit row in the caller's transaction. */
export async function insertJobWithAudit(
  tx: Tx,
  actor: Actor,
  spec: JobSpec,
): Promise<IngestJobRow> {
  if (spec.datasetId)
    await requireLiveDatasets(tx, [{ datasetId: spec.datasetId, path: "dataset_id" }]);
  const payload: IngestPayload = {
    agent_id: spec.agentId,
    dataset_id: spec.datasetId,
    source: spec.source,
    key_id: actor.keyId,
    request_id: actor.requestId,
    warnings: spec.warnings ?? [],
    ...(spec.batch
      ? { batch_id: spec.batch.batchId, rank: spec.batch.rank, title: spec.batch.title }
      : {}),
  };
  const row = await insertIngestJob(tx, {
    org_id: actor.orgId,
    job_id: spec.jobId ?? newId("job"),
    payload,
    dataset_id: spec.datasetId,
    batch_id: spec.batch?.batchId ?? null,
    state: spec.state ?? "queued",
  });
  const { text: _omitted, ...sourceDetail } = spec.source as { text?: string };
  await recordAudit(tx, actor, {
    operation: "ingest",
    agentId: spec.agentId,
    targetIds: [row.job_id],
    detail: {
      phase: "submitted",
      dataset_id: spec.datasetId,
      source: sourceDetail,
      ...(spec.source.kind === "text" ? { chars: spec.source.text.length } : {}),
    },
  });
  return row;
}

export async function enqueueIngest(
  deps: Pick<Ports, "queue" | "log">,
  orgId: string,
  jobId: string,
): Promise<void> {
  try {
    await deps.queue.enqueue(
      "svc.ingest_run",
      { org_id: orgId, job_id: jobId },
      { jobId: `ingest-${jobId}` },
    );
  } catch (error) {
    deps.log.warn({
      msg: "could not enqueue svc.ingest_run; the watchdog will pick the job up",
      org_id: orgId,
      job_id: jobId,
      err: (error as Error).message,
    });
  }
}

export type IngestRequest = { agent_id: string; dataset_id?: string; text?: string; url?: string };

function checkRequest(deps: Pick<Ports, "urlPolicy">, input: IngestRequest): FieldProblem[] {
  const problems = nulProblems(input, "");
  if (problems.length > 0) return problems;
  if (input.agent_id.trim() === "")
    problems.push({ path: "/agent_id", message: "must not be blank" });
  if ((input.text === undefined) === (input.url === undefined))
    problems.push({ path: "/", message: "give exactly one of text or url" });
  if (input.text !== undefined && input.text.trim() === "")
    problems.push({ path: "/text", message: "must contain at least one non-space character" });
  if (input.url !== undefined) {
    const problem = urlProblem(input.url, deps.urlPolicy);
    if (problem) problems.push({ path: "/url", message: problem });
  }
  return problems;
}

/** POST /v1/ingest: text or a URL becomes a queued job. */
export async function submitTextOrUrl(
  deps: Pick<Ports, "db" | "queue" | "log" | "urlPolicy">,
  actor: Actor,
  input: IngestRequest,
): Promise<IngestJobRow> {
  const problems = checkRequest(deps, input);
  if (problems.length > 0) throw validationFailed(problems);
  const source: IngestSourceSpec =
    input.text !== undefined
      ? { kind: "text", text: input.text }
      : { kind: "url", url: new URL(input.url!).toString() };
  const row = await withTenant(deps.db, actor.orgId, (tx) =>
    insertJobWithAudit(tx, actor, {
      agentId: input.agent_id,
      datasetId: input.dataset_id ?? null,
      source,
    }),
  );
  await enqueueIngest(deps, actor.orgId, row.job_id);
  return row;
}

/** The 202 body of every submission route. */
export function submittedView(row: IngestJobRow) {
  const payload = row.payload as IngestPayload;
  return {
    job_id: row.job_id,
    kind: "ingest" as const,
    state: row.state,
    agent_id: payload.agent_id,
    dataset_id: row.dataset_id,
    status_url: `/v1/ingest/${row.job_id}`,
    warnings: payload.warnings,
  };
}
