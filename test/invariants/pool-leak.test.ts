// T3: the tenant setting never survives a released connection. 2,000 interleaved tenant
// transactions from two tenants on a pool of two connections; after each, the released connection
// carries no tenant.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "../../src/data/pools";
import { withTenant } from "../../src/data/with-tenant";
import { testApp, type TestApp, type Tenant } from "../harness/app";
import { testServingDatabaseUrl } from "../harness/env";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("leak-a");
  b = await t.tenant("leak-b");
});
afterAll(() => t.close());

test("2,000 interleaved tenant transactions leave no tenant on pooled connections", async () => {
  const sql = connect(testServingDatabaseUrl(), {
    max: 2,
    statementTimeoutMs: 5000,
    applicationName: "svc-pool-leak",
  });
  const db = {
    primary: sql,
    read: sql,
    kind: "postgres" as const,
    connections: 2,
    stats: { inFlight: 0 },
    listen: async () => {},
    close: () => sql.end(),
  };
  let leaks = 0;
  let wrongTenant = 0;
  try {
    const rounds = Array.from({ length: 1000 }, (_, i) => i);
    await Promise.all(
      rounds.map(async (i) => {
        const tenant = i % 2 === 0 ? a : b;
        const seen = await withTenant(
          db,
          tenant.orgId,
          (tx) => tx<{ org_id: string }[]>`SELECT org_id FROM api_keys`,
        );
        if (seen.some((r) => r.org_id !== tenant.orgId)) wrongTenant++;
        const [after] = await sql<
          { org: string | null; role: string }[]
        >`SELECT svc_current_org() AS org, current_user AS role`;
        if (after!.org !== null || after!.role === "svc_app") leaks++;
      }),
    );
    expect({ leaks, wrongTenant }).toEqual({ leaks: 0, wrongTenant: 0 });
  } finally {
    await sql.end();
  }
});

test("without a tenant, the app role sees no tenant rows", async () => {
  const rows = await t.deps.db.primary.begin(async (tx) => {
    await tx`SELECT set_config('role', 'svc_app', true)`;
    return tx`SELECT count(*)::int AS n FROM api_keys`;
  });
  expect(rows[0]!.n).toBe(0);
});

test("a tenant cannot write another tenant's rows", async () => {
  const error = await withTenant(
    t.deps.db,
    a.orgId,
    (tx) =>
      tx`INSERT INTO api_keys (key_id, org_id, name, key_hash, key_start) VALUES ('key_x', ${b.orgId}, 'x', '\\x00', 'x')`,
  ).catch((e) => e);
  expect(error.code).toBe("42501");
});
