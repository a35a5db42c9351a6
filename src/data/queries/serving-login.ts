// The grants the owner gives the serving login (sql/0007_serving_login.sql), and the login's name.
import type { Sql } from "../pools";

export async function servingLoginName(sql: Sql): Promise<string> {
  const rows = await sql<{ login: string }[]>`SELECT current_user AS login`;
  return rows[0]!.login;
}

/**
 * Embedded mode: the serving login is created here, not by a DBA. An existing role is left as it is
 * (and checked).
 */
export async function ensureEmbeddedServingLogin(owner: Sql, login: string): Promise<void> {
  const exists = await owner`SELECT 1 FROM pg_roles WHERE rolname = ${login}`;
  if (exists.length === 0)
    await owner.unsafe(`CREATE ROLE "${login}" LOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT`);
  await owner.unsafe(`GRANT svc_app TO "${login}"`);
}

/** Whether the login may create tables in schema public (an owner may; a serving login may not). */
export async function canCreateTables(sql: Sql): Promise<boolean> {
  const rows = await sql<
    { can: boolean }[]
  >`SELECT has_schema_privilege('public', 'CREATE') AS can`;
  return rows[0]!.can;
}

export async function grantServingLogin(owner: Sql, login: string): Promise<void> {
  await owner`SELECT svc_grant_serving_login(${login})`;
}
