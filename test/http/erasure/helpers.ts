// Erasure test helpers: request an erasure and wait for it to settle, and scan every column of the
// schema that can hold text for a marker string.
import { expect } from "bun:test";
import type { Sql } from "postgres";
import { show, type TestApp } from "../../harness/app";
import { eventually } from "../../queue/wait";

export async function erase(
  t: Pick<TestApp, "request">,
  key: string,
  body: Record<string, unknown>,
): Promise<any> {
  const queued = await t.request("POST", "/v1/erasures", { key, body });
  expect(queued.status, show(queued)).toBe(202);
  return eventually(
    async () => {
      const r = await t.request("GET", `/v1/erasures/${queued.body.erasure_id}`, { key });
      return ["succeeded", "failed"].includes(r.body?.state) ? r.body : null;
    },
    `erasure ${queued.body.erasure_id} to settle`,
    60_000,
  );
}

const TEXTUAL = ["text", "jsonb", "json", "bytea", "tsvector", "ARRAY", "character varying"];

/** Every (table, column) of the public schema whose value, cast to text, contains the marker. */
export async function tablesHolding(sql: Sql, orgId: string, marker: string): Promise<string[]> {
  return sql.begin(async (tx) => {
    // Tenant tables force row-level security: read them as the tenant.
    await tx`SELECT set_config('app.current_org_id', ${orgId}, true)`;
    const columns = await tx<{ table_name: string; column_name: string; data_type: string }[]>`
      SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
      JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.data_type = ANY(${TEXTUAL})
      ORDER BY 1, 2`;
    const found: string[] = [];
    for (const c of columns) {
      const value =
        c.data_type === "bytea"
          ? `encode("${c.column_name}", 'escape')`
          : `"${c.column_name}"::text`;
      const rows = await tx.unsafe(
        `SELECT 1 FROM "${c.table_name}" WHERE lower(${value}) LIKE $1 LIMIT 1`,
        [`%${marker.toLowerCase()}%`],
      );
      if (rows.length > 0) found.push(`${c.table_name}.${c.column_name}`);
    }
    return found;
  }) as Promise<string[]>;
}
