// Migrations: the embedded manifest matches sql/, re-running is a no-op, concurrent runners
// serialise on the advisory lock, and an edited applied migration refuses to start.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import postgres from "postgres";
import { migrate, migrationStatus, MigrationDriftError } from "../../src/data/migrate";
import { MIGRATIONS } from "../../sql/manifest";
import { databaseUrlFor, TEST_ADMIN_DATABASE_URL } from "../harness/env";
import { dropDatabase } from "../harness/databases";

const name = `svc_mig_${process.pid}_${Date.now().toString(36)}`;
const admin = postgres(TEST_ADMIN_DATABASE_URL, { max: 1, onnotice: () => {} });
let sql: postgres.Sql;

beforeAll(async () => {
  await admin.unsafe(`CREATE DATABASE ${name}`);
  sql = postgres(databaseUrlFor(name), { max: 4, onnotice: () => {} });
});
afterAll(async () => {
  await sql.end();
  await admin.end();
  await dropDatabase(name);
});

describe("migrations", () => {
  test("the manifest lists every sql/*.sql file, in order", () => {
    const files = readdirSync(new URL("../../sql", import.meta.url))
      .filter((f) => f.endsWith(".sql"))
      .sort();
    expect(MIGRATIONS.map((m) => m.name)).toEqual(files);
  });

  test("a fresh database reports everything pending, then concurrent runners apply each migration once", async () => {
    expect((await migrationStatus(sql)).pending.length).toBe(MIGRATIONS.length);
    const runs = await Promise.all([migrate(sql), migrate(sql), migrate(sql)]);
    expect(runs.map((r) => r.applied.length).sort((x, y) => x - y)).toEqual([
      0,
      0,
      MIGRATIONS.length,
    ]);
    expect(await migrationStatus(sql)).toEqual({ applied: expect.any(Array), pending: [] });
    expect((await migrate(sql)).applied).toEqual([]);
  });

  test("an edited applied migration is detected and blocks both migrate and readiness", async () => {
    const first = MIGRATIONS[1]!.name;
    await sql`UPDATE schema_migrations SET checksum = 'edited' WHERE name = ${first}`;
    expect(migrate(sql)).rejects.toBeInstanceOf(MigrationDriftError);
    expect(migrationStatus(sql)).rejects.toThrow(first);
  });
});
