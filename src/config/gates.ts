// Derived booleans deciding which opt-in route groups exist.
import type { Config } from "./schema";

export type Gates = Readonly<{
  distill: boolean;
  ingest: boolean;
  ingestUploadUrl: boolean;
  ingestSearch: boolean;
  refine: boolean;
  forgetProof: boolean;
  superadmin: boolean;
  multimodal: boolean;
}>;

export function gatesOf(config: Config): Gates {
  return Object.freeze({
    distill: config.DISTILL_ENABLED,
    ingest: config.INGEST_ENABLED,
    ingestUploadUrl: config.INGEST_ENABLED && config.STORAGE_BACKEND === "s3",
    ingestSearch: config.INGEST_ENABLED && Boolean(config.WEBSEARCH_API_KEY),
    refine: config.REFINE_ENABLED,
    forgetProof: config.FORGET_PROOF_ENABLED,
    superadmin: config.SUPERADMIN_ENABLED && Boolean(config.SUPERADMIN_API_KEY),
    multimodal: config.MULTIMODAL_ENABLED,
  });
}
