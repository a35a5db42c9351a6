// Opt-in gates and feature flags named by the spec.
import { Type as T } from "@sinclair/typebox";

export const gatesSection = {
  DISTILL_ENABLED: T.Boolean({ default: false, description: "Gate: /v1/distill routes" }),
  INGEST_ENABLED: T.Boolean({
    default: false,
    description: "Gate: /v1/ingest and /v1/datasets routes",
  }),
  REFINE_ENABLED: T.Boolean({
    default: false,
    description: "Gate: /v1/refine and /v1/feedback routes",
  }),
  FORGET_PROOF_ENABLED: T.Boolean({
    default: false,
    description: "Gate: forget certificates and /v1/forget routes",
  }),
  SUPERADMIN_ENABLED: T.Boolean({
    default: false,
    description: "Gate: superadmin budget routes (also needs SUPERADMIN_API_KEY)",
  }),
  SUPERADMIN_API_KEY: T.Optional(
    T.String({
      minLength: 16,
      description: "Superadmin bearer key (svc keys create --superadmin makes one)",
    }),
  ),
  MULTIMODAL_ENABLED: T.Boolean({
    default: false,
    description: "Gate: image and audio ingest loaders",
  }),
  MEMORY_TIER_AUTO_ROUTE: T.Boolean({
    default: false,
    description: "Assign memory_type by rules when a store gives none (docs/memories.md)",
  }),
  RETRIEVAL_REDACTION_ENABLED: T.Boolean({
    default: false,
    description: "Mask secrets and personal data in recall output (docs/recall.md)",
  }),
  INGEST_AUTO_DISTILL: T.Boolean({
    default: true,
    description: "Chain every successful ingest into distill",
  }),
  STORAGE_BACKEND: T.Union([T.Literal("fs"), T.Literal("s3")], {
    default: "fs",
    description: "s3 enables direct-upload URLs",
  }),
  WEBSEARCH_API_KEY: T.Optional(
    T.String({ description: "Enables /v1/ingest/search (with INGEST_ENABLED)" }),
  ),
};
