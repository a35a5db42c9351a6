// Upgrading a database migrated before key scopes: 0005 is numbered below migrations it already
// has, and the runner applies it anyway (pending = not yet recorded, whatever its number); every
// existing key, revoked or live, bootstrap or standard, comes out holding every scope.
import { expect, test } from "bun:test";
import { migrate } from "../../src/data/migrate";
import { sha256Hex } from "../../src/lib/hash";
import { hashKey, mintKey } from "../../src/domain/keys/format";
import { SCOPES } from "../../src/lib/scopes";
import { MIGRATIONS } from "../../sql/manifest";
import { emptyDatabase } from "../harness/databases";

const sql = await emptyDatabase("keyup");

const SCOPES_MIGRATION = "0005_api_key_scopes.sql";
/** Later scope migrations build on 0005's column, so they are pending with it. */
const LATER_SCOPES = ["0450_export_scope.sql"];

test("0005 applies to an already-migrated database and gives existing keys full access", async () => {
  const before = MIGRATIONS.filter(
    (m) => m.name !== SCOPES_MIGRATION && !LATER_SCOPES.includes(m.name),
  );
  expect(before.length).toBe(MIGRATIONS.length - 1 - LATER_SCOPES.length);
  expect(before.some((m) => m.name > SCOPES_MIGRATION)).toBe(true);
  await sql`CREATE TABLE schema_migrations (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
  for (const m of before) {
    await sql.unsafe(m.sql);
    await sql`INSERT INTO schema_migrations (name, checksum) VALUES (${m.name}, ${sha256Hex(m.sql)})`;
  }
  const live = mintKey();
  await sql.begin(async (tx) => {
    await tx`INSERT INTO orgs (id, name) VALUES ('org_up', 'up')`;
    await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', 'org_up', true)`;
    await tx`INSERT INTO api_keys (key_id, org_id, name, key_hash, key_start, kind, revoked_at) VALUES
      ('key_live', 'org_up', 'old', ${live.hash}, ${live.start}, 'standard', NULL),
      ('key_boot', 'org_up', 'boot', ${hashKey("svc_sk_bootbootbootbootbootboot")}, 'svc_sk_bootb', 'bootstrap', NULL),
      ('key_gone', 'org_up', 'revoked', ${mintKey().hash}, 'svc_sk_gone0', 'standard', now())`;
  });

  expect((await migrate(sql)).applied).toEqual([SCOPES_MIGRATION, ...LATER_SCOPES]);
  expect((await migrate(sql)).applied).toEqual([]);

  const rows = await sql.begin(async (tx) => {
    await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', 'org_up', true)`;
    return tx<
      { key_id: string; scopes: string[] }[]
    >`SELECT key_id, scopes FROM api_keys ORDER BY key_id`;
  });
  expect([...rows]).toEqual([
    { key_id: "key_boot", scopes: [...SCOPES] },
    { key_id: "key_gone", scopes: [...SCOPES] },
    { key_id: "key_live", scopes: [...SCOPES] },
  ]);
  // The column refuses unknown scopes and an empty set.
  for (const scopes of [["memories:delete"], []]) {
    const attempt = sql.begin(async (tx) => {
      await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', 'org_up', true)`;
      await tx`UPDATE api_keys SET scopes = ${scopes}::text[] WHERE key_id = 'key_live'`;
    });
    await expect(attempt).rejects.toThrow("api_keys_scopes_known");
  }
});
