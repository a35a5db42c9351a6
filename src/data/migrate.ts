// Applies the embedded migrations under an advisory lock; refuses to run when an applied file was
// edited.
import { MIGRATIONS } from "../../sql/manifest";
import { sha256Hex } from "../lib/hash";
import type { Sql, Tx } from "./pools";

const MIGRATION_LOCK = 7_001_001;

export class MigrationDriftError extends Error {}

export type MigrationStatus = { applied: string[]; pending: string[] };

async function ensureTable(sql: Tx): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
}

export type Migration = { name: string; sql: string };

function checkDrift(
  applied: ReadonlyArray<{ name: string; checksum: string }>,
  migrations: ReadonlyArray<Migration>,
): void {
  const known = new Map(migrations.map((m) => [m.name, sha256Hex(m.sql)]));
  for (const row of applied) {
    const expected = known.get(row.name);
    if (expected === undefined)
      throw new MigrationDriftError(
        `database has migration ${row.name}, which this build does not know: it is newer than this binary`,
      );
    if (expected !== row.checksum)
      throw new MigrationDriftError(
        `migration ${row.name} was edited after it was applied (checksum ${row.checksum.slice(0, 12)}… ≠ ${expected.slice(0, 12)}…); restore the file or add a new migration`,
      );
  }
}

/**
 * `migrations` is the build's list; the upgrade test passes an older release's to stand in for it.
 */
export async function migrate(
  sql: Sql,
  migrations: ReadonlyArray<Migration> = MIGRATIONS,
): Promise<MigrationStatus> {
  return (await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await ensureTable(tx);
    const applied = await tx<
      { name: string; checksum: string }[]
    >`SELECT name, checksum FROM schema_migrations`;
    checkDrift(applied, migrations);
    const done = new Set(applied.map((r) => r.name));
    const pending = migrations.filter((m) => !done.has(m.name));
    for (const m of pending) {
      await tx.unsafe(m.sql); // constant text embedded at build time
      await tx`INSERT INTO schema_migrations (name, checksum) VALUES (${m.name}, ${sha256Hex(m.sql)})`;
    }
    return { applied: pending.map((m) => m.name), pending: [] };
  })) as MigrationStatus;
}

/** For readiness: which migrations are missing; throws MigrationDriftError on an edited file. */
export async function migrationStatus(sql: Sql): Promise<MigrationStatus> {
  const exists = await sql`SELECT to_regclass('schema_migrations') AS t`;
  if (exists[0]?.t === null) return { applied: [], pending: MIGRATIONS.map((m) => m.name) };
  const applied = await sql<
    { name: string; checksum: string }[]
  >`SELECT name, checksum FROM schema_migrations`;
  checkDrift(applied, MIGRATIONS);
  const done = new Set(applied.map((r) => r.name));
  return {
    applied: [...done],
    pending: MIGRATIONS.filter((m) => !done.has(m.name)).map((m) => m.name),
  };
}
