// POST /v1/refine: validates the request (a dataset_id must name a live dataset of the tenant),
// writes the job row (the source of truth a client polls) and an audit row in one transaction, then
// wakes a worker. The scheduler tick creates its rows through the same function with the configured
// default passes.
import type { Ports } from "../../ports/ports";
import type { Tx } from "../../../data/pools";
import { createJob } from "../../jobs/claim";
import { withTenant } from "../../../data/with-tenant";
import type { Actor } from "../../actor";
import { recordAudit } from "../../audit/record";
import { validationFailed, type FieldProblem } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { requireLiveDatasets } from "../../datasets/require-live";
import { defaultPasses, inRunOrder, type PassName } from "./pass-names";
import type { RefineRequest } from "./progress";

export type RefineInput = {
  agent_id?: string;
  dataset_id?: string;
  passes?: PassName[];
  dry_run?: boolean;
};

export type QueuedRefine = {
  job_id: string;
  state: "queued";
  agent_id: string | null;
  dataset_id: string | null;
  passes: PassName[];
  dry_run: boolean;
  created_at: Date;
};

function check(input: RefineInput): void {
  const problems: FieldProblem[] = [];
  if (input.passes !== undefined && new Set(input.passes).size !== input.passes.length)
    problems.push({ path: "/passes", message: "must not name a pass twice" });
  if (problems.length > 0) throw validationFailed(problems);
}

/** Inserts the job row and its audit row; the caller enqueues svc.refine_run after the commit. */
export async function insertRefineJob(
  tx: Tx,
  actor: Actor,
  request: RefineRequest,
): Promise<QueuedRefine> {
  const jobId = newId("job");
  const row = await createJob(
    tx,
    actor.orgId,
    jobId,
    "refine",
    request as unknown as Record<string, unknown>,
  );
  await recordAudit(tx, actor, {
    operation: "refine",
    agentId: request.agent_id,
    targetIds: [jobId],
    detail: {
      phase: "requested",
      trigger: request.trigger,
      passes: request.passes,
      dry_run: request.dry_run,
      dataset_id: request.dataset_id,
    },
  });
  return {
    job_id: jobId,
    state: "queued",
    agent_id: request.agent_id,
    dataset_id: request.dataset_id,
    passes: request.passes,
    dry_run: request.dry_run,
    created_at: row.created_at,
  };
}

export const enqueueRefine = (deps: Pick<Ports, "queue">, orgId: string, jobId: string) =>
  // If this enqueue is lost, svc.ingest_watchdog finds the queued row and enqueues it again.
  deps.queue.enqueue(
    "svc.refine_run",
    { org_id: orgId, job_id: jobId },
    { jobId: `refine-${jobId}` },
  );

export async function requestRefine(
  deps: Pick<Ports, "db" | "config" | "log" | "queue">,
  actor: Actor,
  input: RefineInput,
): Promise<QueuedRefine> {
  check(input);
  const request: RefineRequest = {
    agent_id: input.agent_id ?? null,
    dataset_id: input.dataset_id ?? null,
    passes: input.passes
      ? inRunOrder(input.passes)
      : defaultPasses(deps.config.REFINE_DEFAULT_PASSES),
    dry_run: input.dry_run ?? false,
    trigger: "api",
    key_id: actor.keyId,
    request_id: actor.requestId,
  };
  const queued = await withTenant(deps.db, actor.orgId, async (tx) => {
    if (request.dataset_id !== null)
      await requireLiveDatasets(tx, [{ datasetId: request.dataset_id, path: "/dataset_id" }]);
    return insertRefineJob(tx, actor, request);
  });
  try {
    await enqueueRefine(deps, actor.orgId, queued.job_id);
  } catch (error) {
    // The row is committed; the watchdog re-enqueues queued rows, so the run is late, not lost.
    deps.log.warn({
      msg: "refine enqueue failed; the watchdog will enqueue the job",
      job_id: queued.job_id,
      err: (error as Error).message,
    });
  }
  return queued;
}
