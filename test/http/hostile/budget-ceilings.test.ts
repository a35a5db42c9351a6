// Operator ceilings (issue 23, item 8): the superadmin's caps and the tenant's own overrides live
// apart; the effective cap is the lower of the two, so a tenant's admin key can lower the
// operator's cap but never lift it, and neither write erases the other; enforced (429) at the
// ceiling; in both database modes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { embeddedApp } from "../../harness/embedded-app";

const SUPERADMIN_KEY = "svc_sa_test_superadmin_key_ceilings_0123456789";
const GATES = { SUPERADMIN_ENABLED: true, SUPERADMIN_API_KEY: SUPERADMIN_KEY };

const MODES = [
  [
    "PostgreSQL",
    async () => {
      const t = await testApp(GATES);
      return { app: t, tenant: () => t.tenant("ceiling"), close: t.close };
    },
  ],
  [
    "embedded",
    async () => {
      const e = await embeddedApp("ceiling", GATES);
      return { app: e.app, tenant: () => e.tenant(`ceiling-${Date.now()}`), close: e.close };
    },
  ],
] as const;

for (const [mode, open] of MODES) {
  describe(`budget ceilings (${mode})`, () => {
    let t: TestApp;
    let tenant: Tenant;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const opened = await open();
      ({ app: t, close } = opened);
      tenant = await opened.tenant();
    });
    afterAll(() => close());

    const operator = (body: object) =>
      t.request("PUT", `/v1/tenants/${tenant.orgId}/budgets`, { key: SUPERADMIN_KEY, body });
    const own = (body: object) =>
      t.request("PUT", "/v1/tenants/me/budgets", { key: tenant.key, body });

    test("a tenant override cannot lift the operator's ceiling, only lower it; neither write erases the other", async () => {
      expect((await operator({ daily_tokens: 1000, monthly_tokens: 5000 })).status).toBe(200);
      const raised = await own({ daily_tokens: 1_000_000, monthly_tokens: null });
      expect(raised.status, show(raised)).toBe(200);
      expect(raised.body.overrides).toEqual({ daily_tokens: 1_000_000, monthly_tokens: null });
      expect(raised.body.ceilings).toEqual({ daily_tokens: 1000, monthly_tokens: 5000 });
      expect(raised.body.effective).toEqual({ daily_tokens: 1000, monthly_tokens: 5000 });

      const lowered = await own({ daily_tokens: 10, monthly_tokens: 20 });
      expect(lowered.body.effective).toEqual({ daily_tokens: 10, monthly_tokens: 20 });

      const reset = await operator({ daily_tokens: 500 });
      expect(reset.body.overrides).toEqual({ daily_tokens: 10, monthly_tokens: 20 });
      expect(reset.body.ceilings).toEqual({ daily_tokens: 500, monthly_tokens: null });
      expect(reset.body.effective).toEqual({ daily_tokens: 10, monthly_tokens: 20 });

      await own({ daily_tokens: null });
      const usage = await t.request("GET", "/v1/usage", { key: tenant.key });
      expect(usage.body.budgets).toEqual({ daily_tokens: 500, monthly_tokens: null });
    });

    test("the ceiling is enforced although the tenant set a higher override", async () => {
      await operator({ daily_tokens: 0 });
      await own({ daily_tokens: 1_000_000 });
      const store = await t.request("POST", "/v1/memories", {
        key: tenant.key,
        body: { agent_id: "a", content: "over the operator's cap" },
      });
      expect(store.status, show(store)).toBe(429);
      expect(store.body.type).toEndWith("/errors/budget-exceeded");
      await operator({ daily_tokens: null });
      const after = await t.request("POST", "/v1/memories", {
        key: tenant.key,
        body: { agent_id: "a", content: "within the tenant's own cap" },
      });
      expect(after.status, show(after)).toBe(201);
    });
  });
}
