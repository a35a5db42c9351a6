// T1: every table with an org_id column has ENABLE + FORCE row-level security and a policy; the app
// role is not a superuser, cannot bypass RLS, owns nothing and holds no grant on any partition.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { servingLoginProblems } from "../../src/data/serving-login";
import { APP_ROLE } from "../../src/data/with-tenant";
import { testApp, type TestApp } from "../harness/app";

let t: TestApp;
beforeAll(async () => { t = await testApp(); });
afterAll(() => t.close());

test("every org_id table has RLS enabled, forced and a policy", async () => {
  const rows = await t.deps.db.primary<{ table: string; enabled: boolean; forced: boolean; policies: number }[]>`
    SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
           (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped
    WHERE c.relkind IN ('r', 'p')`;
  expect(rows.length).toBeGreaterThanOrEqual(3);
  const weak = rows.filter((r) => !r.enabled || !r.forced || r.policies === 0);
  expect(weak).toEqual([]);
});

test("the app role cannot bypass RLS, owns nothing and has no grants on partitions", async () => {
  const [role] = await t.deps.db.primary`SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = ${APP_ROLE}`;
  expect(role).toEqual({ rolsuper: false, rolbypassrls: false, rolcanlogin: false });
  const owned = await t.deps.db.primary`SELECT c.relname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = ${APP_ROLE}`;
  expect(owned.length).toBe(0);
  const partitionGrants = await t.deps.db.primary`
    SELECT c.relname FROM pg_class c
    WHERE c.relispartition AND has_table_privilege(${APP_ROLE}, c.oid, 'SELECT,INSERT,UPDATE,DELETE')`;
  expect(partitionGrants.map((r) => r.relname)).toEqual([]);
});

test("the serving login is no superuser, has no BYPASSRLS, can SET ROLE svc_app and nothing privileged", async () => {
  // The suite serves with one development login that owns the tables (the only problem allowed here);
  // test/invariants/serving-login.test.ts checks the two-login setup, where even that is refused.
  const { login, problems, ownsTablesOnly } = await servingLoginProblems(t.deps.db.primary);
  expect(login.length).toBeGreaterThan(0);
  expect(problems.length === 0 || ownsTablesOnly, problems.join("; ")).toBe(true);
  const [self] = await t.deps.db.primary`SELECT rolsuper, rolbypassrls, pg_has_role(current_user, ${APP_ROLE}, 'MEMBER') AS app FROM pg_roles WHERE rolname = current_user`;
  expect(self).toEqual({ rolsuper: false, rolbypassrls: false, app: true });
});
