// Account operations: API keys, limits, the tenant's own budgets, audit log, usage. Any tenant's
// budgets are in superadmin.ts, forget certificates in forget-proof.ts.
import { t } from "elysia";
import { listAudit } from "../domain/audit/list";
import { getBudgets, replaceBudgets } from "../domain/budgets/manage";
import { createTenantKey, listTenantKeys, revokeTenantKey } from "../domain/keys/manage";
import { readLimitPosture } from "../domain/ratelimit/posture";
import { readUsage } from "../domain/usage/read";
import { type Operation, read, write } from "./operation";
import { ApiKey, ApiKeyParams, CreateApiKey, CreatedApiKey } from "./schemas/api-keys";
import { AuditQuery, AuditRecord } from "./schemas/audit";
import { Budgets, BudgetsUpdate, Usage } from "./schemas/budgets";
import { PageQuery } from "./schemas/common";
import { LimitsPosture } from "./schemas/limits";

const keyTags = ["API keys"];
const budgetTags = ["Usage and budgets"];
const pageOf = (item: ReturnType<typeof t.Object>) =>
  t.Object({ items: t.Array(item), next_cursor: t.Union([t.String(), t.Null()]) });

export const ACCOUNT_OPERATIONS: readonly Operation[] = [
  // The new key holds only scopes the caller holds (default: the caller's), within
  // API_KEYS_MAX_ACTIVE live keys; its plaintext is in this response only.
  write("POST", "/v1/api-keys", "admin", "api_key.create", {
    handler: {
      input: { from: "body", schema: () => CreateApiKey },
      status: 201,
      output: CreatedApiKey,
      errors: [400, 409, 413, 415],
      docs: { tags: keyTags, summary: "Create an API key (plaintext returned once)" },
      run: ({ deps, actor, scopes }, body) =>
        createTenantKey(
          deps.db,
          actor,
          scopes,
          { name: body.name ?? "unnamed", scopes: body.scopes },
          deps.config.API_KEYS_MAX_ACTIVE,
        ),
    },
  }),
  read("/v1/api-keys", "admin", {
    handler: {
      input: { from: "query", schema: () => PageQuery },
      output: pageOf(ApiKey),
      errors: [],
      docs: { tags: keyTags, summary: "List the caller's API keys" },
      run: ({ deps, actor }, query) =>
        listTenantKeys(deps.db, actor, query.limit ?? 50, query.cursor),
    },
  }),
  // The key fails from the next request on; revoking again is idempotent.
  write("DELETE", "/v1/api-keys/:key_id", "admin", "api_key.revoke", {
    handler: {
      input: null,
      params: ApiKeyParams,
      output: ApiKey,
      errors: [404],
      docs: { tags: keyTags, summary: "Revoke an API key" },
      run: ({ deps, actor }, _, params) => revokeTenantKey(deps, actor, params.key_id),
    },
  }),
  read("/v1/limits", "any", {
    handler: {
      input: null,
      output: LimitsPosture,
      errors: [],
      docs: {
        tags: ["Account"],
        summary: "Rate-limit posture of the calling key and of its tenant",
      },
      run: ({ deps, actor }) => readLimitPosture(deps, actor),
    },
  }),
  read("/v1/tenants/me/budgets", "admin", {
    handler: {
      input: null,
      output: Budgets,
      errors: [],
      docs: {
        tags: budgetTags,
        summary: "Read the caller's budget overrides and effective caps",
      },
      run: ({ deps, actor }) => getBudgets(deps.db, deps.config, actor.orgId),
    },
  }),
  // Non-negative integers, or null to clear.
  write("PUT", "/v1/tenants/me/budgets", "admin", "budget.update", {
    handler: {
      input: { from: "body", schema: () => BudgetsUpdate },
      output: Budgets,
      errors: [400, 413, 415],
      docs: { tags: budgetTags, summary: "Replace the caller's budget overrides" },
      run: ({ deps, actor }, body) => replaceBudgets(deps.db, deps.config, actor, body),
    },
  }),
  read("/v1/audit", "audit:read", {
    mcp: "audit_query",
    handler: {
      input: { from: "query", schema: () => AuditQuery },
      output: pageOf(AuditRecord),
      errors: [],
      docs: {
        tags: ["Audit"],
        summary: "List the audit log (hash-chained)",
        description:
          "Rows appear once the drain has moved them from the pending table " +
          "(AUDIT_DRAIN_INTERVAL_SECONDS, default 1 s). Ascending by seq, or newest first with " +
          "order=desc; pass next_cursor as cursor for the next page (it keeps its order). " +
          "Recompute each hash as described in docs/audit.md.",
      },
      run: ({ deps, actor }, query) => listAudit(deps.db, actor, query),
    },
  }),
  read("/v1/usage", "audit:read", {
    handler: {
      input: null,
      output: Usage,
      errors: [],
      docs: { tags: budgetTags, summary: "Usage counters, today and month-to-date (UTC)" },
      run: ({ deps, actor }) => readUsage(deps.db, deps.config, actor),
    },
  }),
];
