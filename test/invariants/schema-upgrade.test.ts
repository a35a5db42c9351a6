// Migrations upgrade safely: a database created by an older release (test/fixtures/schema-c083453)
// and then migrated by this build has the same schema as a fresh one, on PostgreSQL and on PGlite;
// and numbering is append-only, so every new migration numbers above every shipped one.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type postgres from "postgres";
import { MIGRATIONS } from "../../sql/manifest";
import { openEmbedded } from "../../src/data/embedded";
import { migrate } from "../../src/data/migrate";
import { emptyDatabase } from "../harness/databases";
import { frozenMigrations, shippedMigrationNames } from "../harness/frozen-release";
import { type SchemaSnapshot, schemaSnapshot } from "../harness/schema-snapshot";

const numberOf = (name: string) => Number(name.slice(0, name.indexOf("_")));

/** Fresh: this build's migrations on an empty database. Upgraded: the old release's, then ours. */
async function freshAndUpgraded(open: (label: string) => Promise<postgres.Sql>) {
  const fresh = await open("fresh");
  await migrate(fresh);
  const upgraded = await open("upgraded");
  await migrate(upgraded, frozenMigrations());
  const upgrade = await migrate(upgraded);
  return { fresh: await schemaSnapshot(fresh), upgraded: await schemaSnapshot(upgraded), upgrade };
}

function expectSameSchema(fresh: SchemaSnapshot, upgraded: SchemaSnapshot): void {
  expect(Object.keys(upgraded)).toEqual(Object.keys(fresh));
  // One section at a time, so a failure names the kind of object that differs.
  for (const section of Object.keys(fresh)) {
    expect({ section, rows: upgraded[section] }).toEqual({ section, rows: fresh[section] });
  }
}

describe("append-only migration numbering", () => {
  const shipped = shippedMigrationNames();
  const manifest = MIGRATIONS.map((m) => m.name);

  test("every shipped migration is still listed, and the frozen release is shipped", () => {
    expect(shipped.filter((name) => !manifest.includes(name))).toEqual([]);
    const frozen = frozenMigrations().map((m) => m.name);
    expect(frozen.filter((name) => !shipped.includes(name))).toEqual([]);
  });

  test("a migration not yet shipped numbers above every shipped one; numbers are unique", () => {
    const lastShipped = Math.max(...shipped.map(numberOf));
    const inserted = manifest.filter((n) => !shipped.includes(n) && numberOf(n) <= lastShipped);
    expect({ lastShipped, inserted }).toEqual({ lastShipped, inserted: [] });
    const numbers = manifest.map(numberOf);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});

describe("a database upgraded from the frozen release matches a fresh one", () => {
  test("PostgreSQL", async () => {
    const result = await freshAndUpgraded(async (label) => emptyDatabase(`schema_${label}`));
    expect(result.upgrade.applied.length).toBe(MIGRATIONS.length - frozenMigrations().length);
    expectSameSchema(result.fresh, result.upgraded);
  }, 300_000);

  test("PGlite (embedded)", async () => {
    const closers: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const close of closers) await close();
    });
    const result = await freshAndUpgraded(async (label) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), `svc-schema-${label}-`));
      const db = await openEmbedded(dataDir, {
        statementTimeoutMs: 120_000,
        applicationName: `svc-schema-${label}`,
      });
      closers.push(async () => {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      });
      return db.primary;
    });
    expect(result.upgrade.applied.length).toBe(MIGRATIONS.length - frozenMigrations().length);
    expectSameSchema(result.fresh, result.upgraded);
  }, 600_000); // PGlite migrates in one wasm backend: minutes on a loaded machine
});
