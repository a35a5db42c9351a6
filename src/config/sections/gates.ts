// Opt-in gates and feature flags named by the spec.
import { Type as T } from "@sinclair/typebox";

export const gatesSection = {
  DISTILL_ENABLED: T.Boolean({ default: false }),
  INGEST_ENABLED: T.Boolean({ default: false }),
  REFINE_ENABLED: T.Boolean({ default: false }),
  FORGET_PROOF_ENABLED: T.Boolean({ default: false }),
  SUPERADMIN_ENABLED: T.Boolean({ default: false }),
  SUPERADMIN_API_KEY: T.Optional(T.String()),
  MULTIMODAL_ENABLED: T.Boolean({ default: false }),
  MEMORY_TIER_AUTO_ROUTE: T.Boolean({ default: false }),
  RETRIEVAL_REDACTION_ENABLED: T.Boolean({ default: false }),
  INGEST_AUTO_DISTILL: T.Boolean({ default: true }),
  STORAGE_BACKEND: T.Union([T.Literal("fs"), T.Literal("s3")], { default: "fs" }),
  WEBSEARCH_API_KEY: T.Optional(T.String()),
};
