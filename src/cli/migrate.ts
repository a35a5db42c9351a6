// `svc migrate`: apply pending migrations and print what was applied.
import { openDatabase } from "../app/build-deps";
import { migrate } from "../data/migrate";
import { ensureVectorIndex } from "../data/queries/memories-vector-index";
import { configOrExit } from "./config";

export async function runMigrate(): Promise<void> {
  const config = configOrExit();
  const db = await openDatabase(config, "svc-migrate");
  try {
    const result = await migrate(db.primary);
    await ensureVectorIndex(db.primary, config.EMBEDDING_DIMENSIONS);
    console.log(JSON.stringify({ applied: result.applied }));
  } finally {
    await db.close();
  }
}
