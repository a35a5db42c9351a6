// The route table: every route factory. Which of them are mounted is the catalog's gate of their
// operations (src/operations/, read by mount.ts): a gated-off route is never registered, so it is
// absent from /openapi.json and answers 404.
import type { AnyElysia } from "elysia";
import type { Deps } from "../../app/deps";
import { appendTurnRoute } from "./conversations/append-turn";
import { deleteConversationRoute } from "./conversations/delete";
import { getConversationRoute } from "./conversations/get";
import { listTurnsRoute } from "./conversations/list-turns";
import { openConversationRoute } from "./conversations/open";
import { forgetCertificateRoute } from "./forget-proof/certificate";
import { forgetKeysRoute } from "./forget-proof/keys";
import { batchStoreRoute } from "./memories/batch";
import { forgetMemoriesRoute } from "./memories/forget";
import { getMemoryRoute } from "./memories/get";
import { listMemoriesRoute } from "./memories/list";
import { listAgentsRoute } from "./agents/list";
import { memoryHistoryRoute } from "./memories/history";
import { patchMemoryRoute } from "./memories/patch";
import { recallRoute } from "./memories/recall";
import { recallStreamRoute } from "./memories/recall-stream";
import { storeMemoryRoute } from "./memories/store";
import { errorPagesRoute } from "./public/error-pages";
import { healthRoute } from "./public/health";
import { metricsRoute } from "./public/metrics";
import { readyRoute } from "./public/ready";
import { workerHealthRoute } from "./public/worker-health";
import { superadminGetBudgetsRoute } from "./superadmin/budgets-get";
import { superadminPutBudgetsRoute } from "./superadmin/budgets-put";
import { catalogRoutes, catalogRoutesOf } from "./from-catalog";
import { FORGE_OPERATIONS } from "../../operations/forge";
import { GRAPH_OPERATIONS } from "../../operations/graph";
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
  ...catalogRoutesOf("/v1/api-keys", "/v1/api-keys/:key_id", "/v1/limits"),
  storeMemoryRoute,
  batchStoreRoute,
  forgetMemoriesRoute,
  listMemoriesRoute,
  listAgentsRoute,
  getMemoryRoute,
  memoryHistoryRoute,
  patchMemoryRoute,
  recallRoute,
  recallStreamRoute,
  memoriesWrongMethodRoute,
  ...catalogRoutesOf("/v1/audit", "/v1/usage", "/v1/tenants/me/budgets"),
  ...catalogRoutesOf("/v1/sessions", "/v1/sessions/:session_id", "/v1/sessions/:session_id/end"),
  openConversationRoute,
  getConversationRoute,
  deleteConversationRoute,
  appendTurnRoute,
  listTurnsRoute,
  forgetKeysRoute,
  forgetCertificateRoute,
  superadminGetBudgetsRoute,
  superadminPutBudgetsRoute,
  ...catalogRoutes(GRAPH_OPERATIONS),
  ...catalogRoutes(FORGE_OPERATIONS),
  mcpRoute,
  ...catalogRoutes(TENANT_DATA_OPERATIONS),
  graphViewerRoute,
  ...catalogRoutes(WEBHOOK_OPERATIONS),
];
