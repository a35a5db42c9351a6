// What a migrated test database is built from (the migrations and the code applying them), as a
// short hash: the cached templates (template-database.ts, pglite-template.ts) are named after it.
import { readFileSync } from "node:fs";
import { MIGRATIONS } from "../../sql/manifest";
import { sha256Hex } from "../../src/lib/hash";

export function migrationsHash(...extra: string[]): string {
  const migrateSource = readFileSync(new URL("../../src/data/migrate.ts", import.meta.url), "utf8");
  const parts = MIGRATIONS.map((m) => `${m.name}\n${m.sql}`);
  return sha256Hex([migrateSource, ...extra, ...parts].join("\0")).slice(0, 16);
}
