// `svc migrate`: apply pending migrations and print what was applied.
import { openDatabase } from "../app/build-deps";
import { migrate } from "../data/migrate";
import { configOrExit } from "./config";

export async function runMigrate(): Promise<void> {
  const config = configOrExit();
  const db = await openDatabase(config, "svc-migrate");
  try {
    const result = await migrate(db.primary);
    console.log(JSON.stringify({ applied: result.applied }));
  } finally {
    await db.close();
  }
}
