// Fusion on PostgreSQL (cases in fusion-cases.ts), plus the stream's summary.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { fusedOrderIsReciprocalRank, fusionValidation } from "./fusion-cases";

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("fusion");
});
afterAll(() => t.close());

test("fusion: the order is reciprocal rank over the listed strategies", () =>
  fusedOrderIsReciprocalRank(t, tenant));
test("fusion: bad requests are 422 naming the field", () => fusionValidation(t, tenant));
test("fusion: the stream's summary lists the fused strategies", async () => {
  const res = await t.request("POST", "/v1/memories/recall/stream", {
    key: tenant.key,
    body: {
      agent_id: "fusion-order",
      query: "Lisbon",
      fusion: { strategies: ["VECTOR", "LEXICAL"], k: 10 },
    },
  });
  expect(res.status, show(res)).toBe(200);
  const summary = res.text.split("event: summary\ndata: ")[1]!.split("\n")[0]!;
  expect(JSON.parse(summary).fusion).toEqual({ strategies: ["VECTOR", "LEXICAL"], k: 10 });
});
test("fusion: the audit row names the fused strategies", async () => {
  const res = await t.request("POST", "/v1/memories/recall", {
    key: tenant.key,
    body: {
      agent_id: "fusion-order",
      query: "garden",
      fusion: { strategies: ["TEMPORAL", "LEXICAL"] },
    },
  });
  expect(res.status, show(res)).toBe(200);
  const [row] = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx<{ detail: Record<string, unknown> }[]>`
    SELECT detail FROM audit_pending WHERE operation = 'recall' ORDER BY id DESC LIMIT 1`,
  );
  expect(row!.detail).toMatchObject({
    strategy: "TEMPORAL",
    fused: ["TEMPORAL", "LEXICAL"],
    result_count: res.body.results.length,
  });
});
