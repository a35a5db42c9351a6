// Forge operations: datasets and ingest (INGEST_ENABLED, search and upload each needing a setting
// more), refine and feedback (REFINE_ENABLED), distill (DISTILL_ENABLED). The graph is in graph.ts.
import { DATASET_OPERATIONS } from "./datasets";
import { DISTILL_OPERATIONS } from "./distill";
import { INGEST_OPERATIONS } from "./ingest";
import type { Operation } from "./operation";
import { REFINE_OPERATIONS } from "./refine";

export const FORGE_OPERATIONS: readonly Operation[] = [
  ...DATASET_OPERATIONS,
  ...INGEST_OPERATIONS,
  ...REFINE_OPERATIONS,
  ...DISTILL_OPERATIONS,
];
