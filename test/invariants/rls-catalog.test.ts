// T1: every table with an org_id column has ENABLE + FORCE row-level security and a policy; the app
// role is not a superuser, cannot bypass RLS, owns nothing and holds no grant on any partition.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { servingLoginProblems } from "../../src/data/serving-login";
import { APP_ROLE } from "../../src/data/with-tenant";
import { testApp, type TestApp } from "../harness/app";
import { TEST_SERVING_LOGIN } from "../harness/env";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

test("every org_id table has RLS enabled, forced and a policy", async () => {
  const rows = await t.deps.db.primary<
    { table: string; enabled: boolean; forced: boolean; policies: number }[]
  >`
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
  const [role] = await t.deps.db
    .primary`SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = ${APP_ROLE}`;
  expect(role).toEqual({ rolsuper: false, rolbypassrls: false, rolcanlogin: false });
  const owned = await t.deps.db
    .primary`SELECT c.relname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = ${APP_ROLE}`;
  expect(owned.length).toBe(0);
  const partitionGrants = await t.deps.db.primary`
    SELECT c.relname FROM pg_class c
    WHERE c.relispartition AND has_table_privilege(${APP_ROLE}, c.oid, 'SELECT,INSERT,UPDATE,DELETE')`;
  expect(partitionGrants.map((r) => r.relname)).toEqual([]);
});

test("the serving login is no superuser, has no BYPASSRLS, can SET ROLE svc_app and nothing privileged", async () => {
  // The suite serves as the serving login scripts/setup-services.sh creates (TEST_SERVING_LOGIN),
  // not the owner.
  const { login, problems } = await servingLoginProblems(t.deps.db.primary);
  expect(login).toBe(TEST_SERVING_LOGIN);
  expect(problems).toEqual([]);
  const [self] = await t.deps.db
    .primary`SELECT rolsuper, rolbypassrls, pg_has_role(current_user, ${APP_ROLE}, 'MEMBER') AS app FROM pg_roles WHERE rolname = current_user`;
  expect(self).toEqual({ rolsuper: false, rolbypassrls: false, app: true });
});

test("the serving login cannot get back to the owner: RESET ROLE lands on itself, SET ROLE to the owner is refused", async () => {
  const owner = new URL(t.config.DATABASE_MIGRATION_URL!).username;
  const escape = await t.deps.db.primary.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL ROLE ${APP_ROLE}`);
    await tx.unsafe("RESET ROLE");
    const [who] = await tx<{ user: string }[]>`SELECT current_user AS user`;
    const attempt = (statement: string) =>
      tx
        .savepoint((sp) => sp.unsafe(statement))
        .then(
          () => "done",
          (e: Error) => e.message,
        );
    const disable = await attempt("ALTER TABLE memories NO FORCE ROW LEVEL SECURITY");
    const read = await attempt("SELECT count(*) FROM memories");
    const setOwner = await attempt(`SET ROLE "${owner}"`);
    return { who: who!.user, disable, read, setOwner };
  });
  expect(escape.who).toBe(TEST_SERVING_LOGIN);
  expect(escape.disable).toMatch(/must be owner/);
  expect(escape.read).toMatch(/permission denied/);
  expect(escape.setOwner).toMatch(/permission denied/);
});
