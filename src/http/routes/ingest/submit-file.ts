// POST /v1/ingest/file: a multipart upload (agent_id, dataset_id, file); answers 202 with the job
// to poll. The body is left unparsed here: the domain streams it through busboy, enforcing
// INGEST_MAX_FILE_BYTES.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { submitFile } from "../../../domain/ingest/submit-file";
import { submittedView } from "../../../domain/ingest/submit";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { SubmittedJob } from "../../../operations/schemas/ingest";

const multipartBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["agent_id", "file"],
        additionalProperties: false,
        properties: {
          agent_id: { type: "string", minLength: 1, maxLength: 256 },
          dataset_id: {
            type: "string",
            minLength: 1,
            maxLength: 64,
            description: "A live dataset of the caller; omit to ingest without one",
          },
          file: {
            type: "string",
            format: "binary",
            description:
              "The document; its format is recognised from its bytes (GET /v1/ingest/loaders)",
          },
        },
      },
    },
  },
};

export const submitIngestFileRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/ingest/file",
    async ({ request, set }) => {
      const row = await submitFile(deps, actorOf(request), request);
      set.status = 202;
      return submittedView(row);
    },
    {
      // Keeps Elysia from reading the multipart body; a JSON body was already parsed (and is
      // refused with 415).
      parse: () => ({}),
      response: { 202: SubmittedJob, ...authedErrors(400, 404, 413, 415) },
      detail: {
        tags: ["Ingest"],
        summary: "Ingest an uploaded file",
        description:
          "multipart/form-data with `agent_id`, optional `dataset_id` and one `file` (at most INGEST_MAX_FILE_BYTES, enforced while the upload streams: 413). The format is recognised from the bytes, whatever the declared type says (a contradiction becomes a warning); content no loader reads is refused with 415. Corrupt, encrypted or text-less documents end the job `failed` with failure_reason corrupt, encrypted or empty.",
        requestBody: multipartBody,
      } as never,
    },
  );
