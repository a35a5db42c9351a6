// The route table: every route factory. Which of them are mounted is the catalog's gate of their
// operations (src/operations/, read by mount.ts): a gated-off route is never registered, so it is
// absent from /openapi.json and answers 404.
import type { AnyElysia } from "elysia";
import type { Deps } from "../../app/deps";
import { createApiKeyRoute } from "./account/api-keys-create";
import { listApiKeysRoute } from "./account/api-keys-list";
import { revokeApiKeyRoute } from "./account/api-keys-revoke";
import { limitsRoute } from "./account/limits";
import { auditRoute } from "./account/audit";
import { getOwnBudgetsRoute } from "./account/budgets-get";
import { putOwnBudgetsRoute } from "./account/budgets-put";
import { usageRoute } from "./account/usage";
import { endSessionRoute } from "./account/sessions-end";
import { getSessionRoute } from "./account/sessions-get";
import { startSessionRoute } from "./account/sessions-start";
import { errorPagesRoute } from "./public/error-pages";
import { healthRoute } from "./public/health";
import { metricsRoute } from "./public/metrics";
import { readyRoute } from "./public/ready";
import { workerHealthRoute } from "./public/worker-health";
import { createDatasetRoute } from "./datasets/create";
import { deleteDatasetRoute } from "./datasets/delete";
import { getDatasetRoute } from "./datasets/get";
import { listDatasetsRoute } from "./datasets/list";
import { getIngestJobRoute } from "./ingest/get";
import { ingestLoadersRoute } from "./ingest/loaders";
import { submitIngestRoute } from "./ingest/submit";
import { submitIngestFileRoute } from "./ingest/submit-file";
import { submitSearchRoute } from "./ingest/search-submit";
import { getSearchBatchRoute } from "./ingest/search-get";
import { ingestUploadUrlRoute } from "./ingest/upload-url";
import { ingestFinalizeRoute } from "./ingest/finalize";
import { feedbackRoute } from "./refine/feedback";
import { startRefineRoute } from "./refine/start";
import { refineStatusRoute } from "./refine/status";
import { createDistillRoute } from "./distill/create";
import { getDistillRoute } from "./distill/get";
import { catalogRoutes } from "./from-catalog";
import { CONVERSATION_OPERATIONS } from "../../operations/conversations";
import { FORGET_PROOF_OPERATIONS } from "../../operations/forget-proof";
import { GRAPH_OPERATIONS } from "../../operations/graph";
import { MEMORY_OPERATIONS } from "../../operations/memories";
import { SUPERADMIN_OPERATIONS } from "../../operations/superadmin";
import { TENANT_DATA_OPERATIONS } from "../../operations/tenant-data";
import { WEBHOOK_OPERATIONS } from "../../operations/webhooks";
import { mcpRoute } from "./mcp/mcp";
import { graphViewerRoute } from "./public/graph-viewer";
import { rootRoute } from "./public/root";
import { memoriesWrongMethodRoute } from "./memories/wrong-method";

export type RouteFactory = (deps: Deps) => AnyElysia;

/** Grouped by area; the routes of one factory share one catalog gate. */
export const ROUTES: readonly RouteFactory[] = [
  rootRoute,
  healthRoute,
  readyRoute,
  workerHealthRoute,
  metricsRoute,
  errorPagesRoute,
  createApiKeyRoute,
  listApiKeysRoute,
  revokeApiKeyRoute,
  limitsRoute,
  ...catalogRoutes(MEMORY_OPERATIONS),
  memoriesWrongMethodRoute,
  auditRoute,
  usageRoute,
  getOwnBudgetsRoute,
  putOwnBudgetsRoute,
  startSessionRoute,
  getSessionRoute,
  endSessionRoute,
  ...catalogRoutes(CONVERSATION_OPERATIONS),
  ...catalogRoutes(FORGET_PROOF_OPERATIONS),
  ...catalogRoutes(SUPERADMIN_OPERATIONS),
  ...catalogRoutes(GRAPH_OPERATIONS),
  createDatasetRoute,
  listDatasetsRoute,
  getDatasetRoute,
  deleteDatasetRoute,
  submitIngestRoute,
  ingestLoadersRoute,
  getIngestJobRoute,
  submitIngestFileRoute,
  submitSearchRoute,
  getSearchBatchRoute,
  ingestUploadUrlRoute,
  ingestFinalizeRoute,
  feedbackRoute,
  startRefineRoute,
  refineStatusRoute,
  createDistillRoute,
  getDistillRoute,
  mcpRoute,
  ...catalogRoutes(TENANT_DATA_OPERATIONS),
  graphViewerRoute,
  ...catalogRoutes(WEBHOOK_OPERATIONS),
];
