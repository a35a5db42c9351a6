// Direct-upload shapes (STORAGE_BACKEND=s3): the announcement and the presigned PUT handed back.
import { t } from "elysia";
import type { Config } from "../../config/schema";
import { SubmittedJob } from "./ingest";

const uploadUrlBodies = new WeakMap<Config, ReturnType<typeof uploadUrlBody>>();

/**
 * One schema per config: Elysia's t.Integer carries decode functions of its own, so a second build
 * would not be the route's schema that the catalog's own (and its check) expect.
 */
export const UploadUrlBody = (config: Config) => {
  const built = uploadUrlBodies.get(config) ?? uploadUrlBody(config);
  uploadUrlBodies.set(config, built);
  return built;
};

const uploadUrlBody = (config: Config) =>
  t.Object(
    {
      agent_id: t.String({ minLength: 1, maxLength: 256 }),
      dataset_id: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 64,
          description:
            "A live dataset of the caller (POST /v1/datasets); omit to ingest without one",
        }),
      ),
      filename: t.String({
        minLength: 1,
        maxLength: 255,
        description:
          "The file's name (kept as the memories' source; its extension helps recognise the " +
          "format)",
      }),
      content_type: t.Optional(
        t.String({
          minLength: 3,
          maxLength: 255,
          description:
            "The declared media type; the format is still recognised from the bytes at finalize",
        }),
      ),
      size: t.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: `Exact size in bytes; at most INGEST_MAX_FILE_BYTES (${config.INGEST_MAX_FILE_BYTES} here), else 413. Finalize refuses an object of another size`,
      }),
    },
    { additionalProperties: false },
  );

export const UploadTicket = t.Composite(
  [
    SubmittedJob,
    t.Object({
      upload: t.Object(
        {
          method: t.Literal("PUT"),
          url: t.String({
            description:
              "Presigned S3 URL (SigV4); PUT the raw file bytes to it, no authorization header",
          }),
          headers: t.Record(t.String(), t.String(), {
            description: "Headers to send with the PUT",
          }),
          expires_at: t.String({ description: "ISO 8601; the URL stops working then" }),
          max_bytes: t.Integer({
            description: "The announced size: the object must have exactly this many bytes",
          }),
        },
        { additionalProperties: false },
      ),
      finalize_url: t.String({ description: "POST here once the PUT succeeded" }),
    }),
  ],
  { additionalProperties: false },
);
