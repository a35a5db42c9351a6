// POST /v1/ingest/finalize/{job_id} (STORAGE_BACKEND=s3): checks the uploaded object and queues the
// job.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { finalizeUpload } from "../../../domain/ingest/finalize";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { JobParams, SubmittedJob } from "../../../operations/schemas/ingest";

export const ingestFinalizeRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/ingest/finalize/:job_id",
    async ({ request, params, set }) => {
      const job = await finalizeUpload(deps, actorOf(request), params.job_id);
      set.status = 202;
      return job;
    },
    {
      params: JobParams,
      response: { 202: SubmittedJob, ...authedErrors(404, 409, 410, 413, 415) },
      detail: {
        tags: ["Ingest"],
        summary: "Finalize a direct upload",
        description:
          "The object must exist (else 409, the job keeps waiting), hold exactly the announced size (else 409) and at most INGEST_MAX_FILE_BYTES (else 413), and be a format a loader reads, recognised from its bytes (else 415); a refused object is deleted and may be uploaded again while the URL works. Then the job is queued (202) and runs like POST /v1/ingest/file. After the URL expired plus STORAGE_S3_FINALIZE_GRACE_SECONDS: 410, the job fails with upload-expired. Finalizing a job that was already finalized returns it unchanged.",
      },
    },
  );
