// The route table: every route factory. Which of them are mounted is the catalog's gate of their
// operations (src/operations/, read by mount.ts): a gated-off route is never registered, so it is
// absent from /openapi.json and answers 404.
import type { AnyElysia } from "elysia";
import type { Deps } from "../../operations/deps";
import { errorPagesRoute } from "./public/error-pages";
import { healthRoute } from "./public/health";
import { metricsRoute } from "./public/metrics";
import { readyRoute } from "./public/ready";
import { workerHealthRoute } from "./public/worker-health";
import { catalogRoutes, catalogRoutesOf } from "./from-catalog";
import { CONVERSATION_OPERATIONS } from "../../operations/conversations";
import { FORGE_OPERATIONS } from "../../operations/forge";
import { FORGET_PROOF_OPERATIONS } from "../../operations/forget-proof";
import { GRAPH_OPERATIONS } from "../../operations/graph";
import { MEMORY_OPERATIONS } from "../../operations/memories";
import { SUPERADMIN_OPERATIONS } from "../../operations/superadmin";
import { TENANT_DATA_OPERATIONS } from "../../operations/tenant-data";
import { WEBHOOK_OPERATIONS } from "../../operations/webhooks";
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
  ...catalogRoutes(MEMORY_OPERATIONS),
  memoriesWrongMethodRoute,
  ...catalogRoutesOf("/v1/audit", "/v1/usage", "/v1/tenants/me/budgets"),
  ...catalogRoutesOf("/v1/sessions", "/v1/sessions/:session_id", "/v1/sessions/:session_id/end"),
  ...catalogRoutes(CONVERSATION_OPERATIONS),
  ...catalogRoutes(FORGET_PROOF_OPERATIONS),
  ...catalogRoutes(SUPERADMIN_OPERATIONS),
  ...catalogRoutes(GRAPH_OPERATIONS),
  ...catalogRoutes(FORGE_OPERATIONS),
  ...catalogRoutes(TENANT_DATA_OPERATIONS),
  graphViewerRoute,
  ...catalogRoutes(WEBHOOK_OPERATIONS),
];
