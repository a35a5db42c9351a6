// The route table: the single place that decides which routes are mounted. A group whose gate is off
// is never registered, so it is absent from /openapi.json and answers 404.
import type { AnyElysia } from "elysia";
import type { Deps } from "../../app/deps";
import type { Gates } from "../../config/gates";
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
import { graphDataRoute } from "./graph/data";
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
import { listRelationsRoute } from "./graph/relations-list";
import { putRelationRoute } from "./graph/relations-put";
import { createDistillRoute } from "./distill/create";
import { getDistillRoute } from "./distill/get";
import { mcpRoute } from "./mcp/mcp";
import { exportRoute } from "./export/export";
import { requestErasureRoute } from "./erasures/request";
import { erasureStatusRoute } from "./erasures/status";
import { graphViewerRoute } from "./public/graph-viewer";
import { rootRoute } from "./public/root";
import { memoriesWrongMethodRoute } from "./memories/wrong-method";
import { createWebhookRoute } from "./webhooks/create";
import { listWebhooksRoute } from "./webhooks/list";
import { getWebhookRoute } from "./webhooks/get";
import { deleteWebhookRoute } from "./webhooks/delete";
import { rotateWebhookSecretRoute } from "./webhooks/rotate-secret";
import { webhookDeliveriesRoute } from "./webhooks/deliveries";

export type RouteGroup = {
  name: string;
  gate: (gates: Gates) => boolean;
  routes: Array<(deps: Deps) => AnyElysia>;
};

const always = () => true;

export const ROUTE_GROUPS: RouteGroup[] = [
  {
    name: "public",
    gate: always,
    routes: [rootRoute, healthRoute, readyRoute, workerHealthRoute, metricsRoute, errorPagesRoute],
  },
  {
    name: "account",
    gate: always,
    routes: [createApiKeyRoute, listApiKeysRoute, revokeApiKeyRoute, limitsRoute],
  },
  {
    name: "memories",
    gate: always,
    routes: [
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
    ],
  },
  {
    name: "accountability",
    gate: always,
    routes: [
      auditRoute,
      usageRoute,
      getOwnBudgetsRoute,
      putOwnBudgetsRoute,
      startSessionRoute,
      getSessionRoute,
      endSessionRoute,
    ],
  },
  {
    name: "conversations",
    gate: always,
    routes: [
      openConversationRoute,
      getConversationRoute,
      deleteConversationRoute,
      appendTurnRoute,
      listTurnsRoute,
    ],
  },
  {
    name: "forget-proof",
    gate: (g) => g.forgetProof,
    routes: [forgetKeysRoute, forgetCertificateRoute],
  },
  {
    name: "superadmin",
    gate: (g) => g.superadmin,
    routes: [superadminGetBudgetsRoute, superadminPutBudgetsRoute],
  },
  { name: "graph", gate: always, routes: [graphDataRoute, listRelationsRoute, putRelationRoute] },
  {
    name: "datasets",
    gate: (g) => g.ingest,
    routes: [createDatasetRoute, listDatasetsRoute, getDatasetRoute, deleteDatasetRoute],
  },
  {
    name: "ingest",
    gate: (g) => g.ingest,
    routes: [submitIngestRoute, ingestLoadersRoute, getIngestJobRoute, submitIngestFileRoute],
  },
  {
    name: "ingest-search",
    gate: (g) => g.ingestSearch,
    routes: [submitSearchRoute, getSearchBatchRoute],
  },
  {
    name: "ingest-upload",
    gate: (g) => g.ingestUploadUrl,
    routes: [ingestUploadUrlRoute, ingestFinalizeRoute],
  },
  {
    name: "refine",
    gate: (g) => g.refine,
    routes: [feedbackRoute, startRefineRoute, refineStatusRoute],
  },
  { name: "distill", gate: (g) => g.distill, routes: [createDistillRoute, getDistillRoute] },
  { name: "mcp", gate: always, routes: [mcpRoute] },
  { name: "export", gate: always, routes: [exportRoute] },
  { name: "erasures", gate: always, routes: [requestErasureRoute, erasureStatusRoute] },
  { name: "graph-viewer", gate: always, routes: [graphViewerRoute] },
  {
    name: "webhooks",
    gate: always,
    routes: [
      createWebhookRoute,
      listWebhooksRoute,
      getWebhookRoute,
      deleteWebhookRoute,
      rotateWebhookSecretRoute,
      webhookDeliveriesRoute,
    ],
  },
];
