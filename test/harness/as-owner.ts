// Reads and writes tenant tables as the database owner, past the grants of the serving login.
import type { Sql, TransactionSql } from "postgres";

/** Runs `query` as the owner in `orgId`'s scope: tenant tables force row-level security. */
export function asOwnerOf<T>(
  owner: Sql,
  orgId: string,
  query: (sql: TransactionSql) => Promise<T>,
): Promise<T> {
  return owner.begin(async (sql) => {
    await sql`SELECT set_config('app.current_org_id', ${orgId}, true)`;
    return query(sql);
  }) as Promise<T>;
}
