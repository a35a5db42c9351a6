// Forge operations: datasets and ingest (INGEST_ENABLED, search and upload each needing a setting
// more), refine and feedback (REFINE_ENABLED), distill (DISTILL_ENABLED). The graph is in graph.ts.
import { type Operation, read, write } from "./operation";

const ingest = { gate: "ingest" } as const;
const search = { gate: "ingestSearch" } as const;
const upload = { gate: "ingestUploadUrl" } as const;

export const FORGE_OPERATIONS: readonly Operation[] = [
  write("POST", "/v1/datasets", "forge:write", "dataset.create", ingest),
  read("/v1/datasets", "memories:read", ingest),
  read("/v1/datasets/:dataset_id", "memories:read", ingest),
  write("DELETE", "/v1/datasets/:dataset_id", "forge:write", "dataset.delete", ingest),
  write("POST", "/v1/ingest", "forge:write", "ingest", { ...ingest, mcp: "ingest" }),
  read("/v1/ingest/loaders", "memories:read", ingest),
  read("/v1/ingest/:job_id", "memories:read", ingest),
  write("POST", "/v1/ingest/file", "forge:write", "ingest", ingest),
  write("POST", "/v1/ingest/search", "forge:write", "ingest", search),
  read("/v1/ingest/search/:batch_id", "memories:read", search),
  write("POST", "/v1/ingest/upload-url", "forge:write", "ingest", upload),
  write("POST", "/v1/ingest/finalize/:job_id", "forge:write", "ingest", upload),
  write("POST", "/v1/feedback", "memories:write", "feedback", { gate: "refine", mcp: "feedback" }),
  write("POST", "/v1/refine", "forge:write", "refine", { gate: "refine", mcp: "refine" }),
  read("/v1/refine/:job_id", "memories:read", { gate: "refine" }),
  write("POST", "/v1/distill", "forge:write", "distill", { gate: "distill", mcp: "distill" }),
  read("/v1/distill/:job_id", "memories:read", { gate: "distill" }),
];
