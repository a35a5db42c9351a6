// Audit partitions: ensureAuditPartitions is idempotent and concurrent-safe, each partition has its
// own ENABLE + FORCE RLS and policy and no grant to the app role, and rows route to their month.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { orgsWithPendingAudit } from "../../src/data/queries/audit/audit";
import { withSystem } from "../../src/data/with-system";
import { APP_ROLE, withTenantRead } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { drainAudit } from "../../src/domain/audit/drain";
import { verifyOrgChain } from "../../src/domain/audit/list";
import { ensureAuditPartitions } from "../../src/domain/audit/partitions";
import { recordAudit } from "../../src/domain/audit/record";
import { withTenant } from "../../src/data/with-tenant";
import { testApp, type TestApp } from "../harness/app";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

test("creates this and next month's partitions, idempotently and under concurrent callers", async () => {
  const at = new Date(Date.UTC(2031, 11, 15, 23, 59));
  const runs = await Promise.all(
    Array.from({ length: 4 }, () => ensureAuditPartitions(t.deps.db, at)),
  );
  for (const names of runs) expect(names).toEqual(["audit_log_2031m12", "audit_log_2032m01"]);
  expect(await ensureAuditPartitions(t.deps.db, at)).toEqual([
    "audit_log_2031m12",
    "audit_log_2032m01",
  ]);
  const parts = await t.deps.db.primary<
    { name: string; rls: boolean; forced: boolean; policies: number; bounds: string }[]
  >`
    SELECT c.relname AS name, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
           (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies,
           pg_get_expr(c.relpartbound, c.oid) AS bounds
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'audit_log'::regclass AND c.relname IN ('audit_log_2031m12', 'audit_log_2032m01') ORDER BY 1`;
  expect(parts.map((p) => [p.name, p.rls, p.forced, p.policies])).toEqual([
    ["audit_log_2031m12", true, true, 1],
    ["audit_log_2032m01", true, true, 1],
  ]);
  expect(parts[0]!.bounds).toContain("2031-12-01 00:00:00+00");
  const grants = await t.deps.db
    .primary`SELECT has_table_privilege(${APP_ROLE}, 'audit_log_2031m12', 'SELECT,INSERT,UPDATE,DELETE') AS any`;
  expect(grants[0]!.any).toBe(false);
});

test("drained rows land in the partition of their month and stay readable through the parent only", async () => {
  const orgId = (await t.tenant("parts")).orgId;
  await withTenant(t.deps.db, orgId, (tx) =>
    recordAudit(tx, systemActor(orgId), { operation: "store", targetIds: ["m"] }),
  );
  await drainAudit(t.deps.db, { orgId });
  const month = new Date().toISOString().slice(0, 7).replace("-", "m");
  const rows = await withTenantRead(
    t.deps.db,
    orgId,
    (tx) => tx<{ part: string }[]>`SELECT tableoid::regclass::text AS part FROM audit_log`,
  );
  expect(new Set(rows.map((r) => r.part))).toEqual(new Set([`audit_log_${month}`]));
  const direct = withTenantRead(t.deps.db, orgId, (tx) =>
    tx.unsafe(`SELECT count(*) FROM audit_log_${month}`),
  );
  await expect(direct).rejects.toThrow(/permission denied/);
  expect((await verifyOrgChain(t.deps.db, orgId)).ok).toBe(true);
});

test("the drain's org scan sees every org's pending rows; a tenant transaction sees only its own", async () => {
  const x = (await t.tenant("scan-x")).orgId;
  const y = (await t.tenant("scan-y")).orgId;
  for (const orgId of [x, y])
    await withTenant(t.deps.db, orgId, (tx) =>
      recordAudit(tx, systemActor(orgId), { operation: "store" }),
    );
  const pendingOrgs = await withSystem(t.deps.db, orgsWithPendingAudit);
  expect(pendingOrgs).toContain(x);
  expect(pendingOrgs).toContain(y);
  const seen = await withTenant(
    t.deps.db,
    x,
    (tx) => tx<{ org_id: string }[]>`SELECT DISTINCT org_id FROM audit_pending`,
  );
  expect(seen.map((r) => r.org_id)).toEqual([x]);
  await drainAudit(t.deps.db, {});
  expect(await withSystem(t.deps.db, orgsWithPendingAudit)).toEqual([]);
});
