// Superadmin budgets: exactly 401 / 403 / 404 / 422, the work lands in the path's org, every call
// is logged with its target, and with the gate off the routes do not exist.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";

const SUPERADMIN_KEY = "svc_sa_test_superadmin_key_0123456789abcdef";
let t: TestApp;
let a: Tenant;
beforeAll(async () => {
  t = await testApp({ SUPERADMIN_ENABLED: true, SUPERADMIN_API_KEY: SUPERADMIN_KEY });
  a = await t.tenant("sa-target");
});
afterAll(() => t.close());

describe("superadmin budgets", () => {
  const path = () => `/v1/tenants/${a.orgId}/budgets`;

  test("401 without a bearer, 403 with a tenant key or a wrong key", async () => {
    for (const method of ["GET", "PUT"]) {
      const body = method === "PUT" ? { daily_tokens: 1 } : undefined;
      expect((await t.request(method, path(), { body })).status).toBe(401);
      expect((await t.request(method, path(), { key: a.key, body })).status).toBe(403);
      expect((await t.request(method, path(), { key: `${SUPERADMIN_KEY}x`, body })).status).toBe(
        403,
      );
    }
  });

  test("404 for an unknown or malformed org", async () => {
    for (const org of ["org_01ARZ3NDEKTSV4RRFFQ69G5FAV", "nope", "org_'; DROP TABLE orgs;--"]) {
      const res = await t.request("GET", `/v1/tenants/${encodeURIComponent(org)}/budgets`, {
        key: SUPERADMIN_KEY,
      });
      expect(res.status, show(res)).toBe(404);
      const put = await t.request("PUT", `/v1/tenants/${encodeURIComponent(org)}/budgets`, {
        key: SUPERADMIN_KEY,
        body: { daily_tokens: 5 },
      });
      expect(put.status, show(put)).toBe(404);
    }
  });

  test("422 for a bad body, changing nothing", async () => {
    for (const body of [{ daily_tokens: -5 }, { monthly_tokens: "lots" }, {}]) {
      const res = await t.request("PUT", path(), { key: SUPERADMIN_KEY, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const own = await t.request("GET", "/v1/tenants/me/budgets", { key: a.key });
    expect(own.body.overrides).toEqual({ daily_tokens: null, monthly_tokens: null });
  });

  test("PUT replaces the target's ceilings, GET reads them, the tenant sees them, and calls are logged", async () => {
    const put = await t.request("PUT", path(), {
      key: SUPERADMIN_KEY,
      body: { daily_tokens: 123, monthly_tokens: 4567 },
    });
    expect(put.status, show(put)).toBe(200);
    expect(put.body).toMatchObject({
      org_id: a.orgId,
      ceilings: { daily_tokens: 123, monthly_tokens: 4567 },
    });
    const get = await t.request("GET", path(), { key: SUPERADMIN_KEY });
    expect(get.body.effective).toEqual({ daily_tokens: 123, monthly_tokens: 4567 });
    const own = await t.request("GET", "/v1/tenants/me/budgets", { key: a.key });
    expect(own.body.ceilings).toEqual({ daily_tokens: 123, monthly_tokens: 4567 });
    expect(own.body.overrides).toEqual({ daily_tokens: null, monthly_tokens: null });
    const logged = t.logLines.filter(
      (l) => l.includes("superadmin budgets call") && l.includes(a.orgId),
    );
    expect(logged.length).toBeGreaterThanOrEqual(2);
  });

  test("the superadmin key is not a tenant key elsewhere", async () => {
    expect((await t.request("GET", "/v1/tenants/me/budgets", { key: SUPERADMIN_KEY })).status).toBe(
      401,
    );
    expect((await t.request("GET", "/v1/usage", { key: SUPERADMIN_KEY })).status).toBe(401);
  });
});

test("with the gate off the routes are absent", async () => {
  const off = await testApp({ SUPERADMIN_ENABLED: true });
  try {
    const tenant = await off.tenant("sa-off");
    const res = await off.request("GET", `/v1/tenants/${tenant.orgId}/budgets`, {
      key: tenant.key,
    });
    expect(res.status).toBe(404);
    const spec = await off.request("GET", "/openapi.json");
    expect(Object.keys(spec.body.paths)).not.toContain("/v1/tenants/{org_id}/budgets");
  } finally {
    await off.close();
  }
});
