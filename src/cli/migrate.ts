// `svc migrate`: apply pending migrations as the owner (DATABASE_MIGRATION_URL, else DATABASE_URL),
// grant the serving login, and print what was applied.
import { openDatabase } from "../app/build-deps";
import { migrateAsOwner } from "../app/database-roles";
import { configOrExit } from "./config";

export async function runMigrate(): Promise<void> {
  const config = configOrExit();
  const db = await openDatabase(config, "svc-migrate");
  try {
    const result = await migrateAsOwner(config, db, "svc-migrate");
    console.log(JSON.stringify({ applied: result.applied }));
  } finally {
    await db.close();
  }
}
