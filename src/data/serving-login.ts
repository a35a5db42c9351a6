// The serving login must not be able to escape row-level security: not a superuser, no BYPASSRLS,
// owner of no table, and unable to SET ROLE to any role that is one of those. Checked by every
// process at boot.
import type { Sql } from "./pools";
import { APP_ROLE } from "./with-tenant";

export class ServingLoginError extends Error {}

type Reachable = {
  rolname: string;
  self: boolean;
  rolsuper: boolean;
  rolbypassrls: boolean;
  owned: number;
};

/** Why the current login could bypass RLS, or cannot enter svc_app (empty when neither). */
export async function servingLoginProblems(
  sql: Sql,
): Promise<{ login: string; problems: string[] }> {
  // Every role the login is, or can SET ROLE to (memberships, transitively).
  const roles = await sql<Reachable[]>`
    WITH RECURSIVE reach(oid) AS (
      SELECT oid FROM pg_roles WHERE rolname = current_user
      UNION SELECT m.roleid FROM pg_auth_members m JOIN reach r ON m.member = r.oid)
    SELECT r.rolname, r.rolname = current_user AS self, r.rolsuper, r.rolbypassrls,
      (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relowner = r.oid AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
          AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%') AS owned
    FROM reach x JOIN pg_roles r ON r.oid = x.oid`;
  const login = roles.find((r) => r.self)?.rolname ?? "?";
  const problems: string[] = [];
  for (const r of roles) {
    const who = r.self ? `it` : `it can SET ROLE to "${r.rolname}", which`;
    if (r.rolsuper) problems.push(`${who} is a superuser`);
    if (r.rolbypassrls) problems.push(`${who} has BYPASSRLS`);
    if (r.owned > 0)
      problems.push(
        `${who} owns ${r.owned} table${r.owned === 1 ? "" : "s"} (an owner can turn row-level security off)`,
      );
  }
  if (!roles.some((r) => r.rolname === APP_ROLE))
    problems.push(`it is not a member of ${APP_ROLE} (GRANT ${APP_ROLE} TO "${login}")`);
  return { login, problems };
}

export function servingLoginMessage(login: string, problems: string[]): string {
  return (
    `refusing to serve: the database login "${login}" (DATABASE_URL) must not be able to bypass row-level security, but ${problems.join("; ")}. ` +
    `Serve with a login that is not a superuser, has NOBYPASSRLS, owns no table and is a member of ${APP_ROLE} only; ` +
    `migrate with the owner in DATABASE_MIGRATION_URL (docs/operations.md, "Database roles")`
  );
}
