// The migrations of an older release, frozen in test/fixtures: the upgrade test needs no history.
import { readdirSync, readFileSync } from "node:fs";
import type { Migration } from "../../src/data/migrate";

/** The release the upgrade test starts from: main at c083453 (2026-11-24, v0.20.0; bands 00-04). */
export const FROZEN_RELEASE = "schema-c083453";

export function frozenMigrations(release = FROZEN_RELEASE): Migration[] {
  const dir = new URL(`../fixtures/${release}/`, import.meta.url);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, sql: readFileSync(new URL(name, dir), "utf8") }));
}

/** Every migration name shipped so far: later ones must number above all of them (append-only). */
export function shippedMigrationNames(): string[] {
  const file = new URL("../fixtures/shipped-migrations.txt", import.meta.url);
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
