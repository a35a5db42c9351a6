// POST /v1/ingest/upload-url (STORAGE_BACKEND=s3): a presigned PUT URL for a direct upload; 201
// with the job, which waits in awaiting_upload until POST /v1/ingest/finalize/{job_id}.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { createUploadUrl } from "../../../domain/ingest/upload-url";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { UploadTicket, UploadUrlBody } from "../../../operations/schemas/ingest-upload";

export const ingestUploadUrlRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/ingest/upload-url",
    async ({ request, body, set }) => {
      const ticket = await createUploadUrl(deps, actorOf(request), body);
      set.status = 201;
      return ticket;
    },
    {
      parse: "json",
      body: UploadUrlBody(deps.config),
      response: { 201: UploadTicket, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Ingest"],
        summary: "Get a presigned URL for a direct upload",
        description:
          "Announce a file (`agent_id`, optional `dataset_id`, `filename`, `content_type`, exact `size` ≤ INGEST_MAX_FILE_BYTES). The answer holds the job (state `awaiting_upload`) and `upload`: PUT the raw bytes to `upload.url` with `upload.headers` before `upload.expires_at` (STORAGE_S3_UPLOAD_EXPIRES_SECONDS), then POST `finalize_url`.",
      },
    },
  );
