// Readiness: the database answers, every migration is applied unedited, and Valkey answers (when
// configured). It also reports which embedding generation serves and a re-embed's progress; a
// re-embed never makes the service unready, since recall keeps serving the old generation until the
// switch.
import { migrationStatus, MigrationDriftError } from "../../data/migrate";
import type { Database } from "../../data/pools";
import { pingDatabase } from "../../data/queries/health/health";
import type { EmbeddingProgress } from "../memories/embedding-progress";

export type CheckState = "ok" | "failing" | "embedded";
export type Readiness = {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState; valkey: CheckState };
  problems: string[];
  embeddings: EmbeddingProgress | null;
};

const withTimeout = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms),
    ),
  ]);

/**
 * `pingValkey` is null in embedded mode (no Valkey); the domain never holds a Valkey client itself.
 */
export async function checkReadiness(
  db: Database,
  pingValkey: (() => Promise<unknown>) | null,
  embeddingProgress: () => Promise<EmbeddingProgress>,
): Promise<Readiness> {
  const problems: string[] = [];
  const checks: Readiness["checks"] = {
    database: "ok",
    migrations: "ok",
    valkey: pingValkey ? "ok" : "embedded",
  };
  try {
    await withTimeout(pingDatabase(db.primary), 2000, "database ping");
    const status = await withTimeout(migrationStatus(db.primary), 2000, "migration check");
    if (status.pending.length > 0) {
      checks.migrations = "failing";
      problems.push(`pending migrations: ${status.pending.join(", ")} (run \`svc migrate\`)`);
    }
  } catch (error) {
    if (error instanceof MigrationDriftError) {
      checks.migrations = "failing";
      problems.push(error.message);
    } else {
      checks.database = "failing";
      checks.migrations = "failing";
      problems.push("database unreachable");
    }
  }
  if (pingValkey) {
    try {
      await withTimeout(pingValkey(), 1000, "valkey ping");
    } catch {
      checks.valkey = "failing";
      problems.push("valkey unreachable");
    }
  }
  let embeddings: EmbeddingProgress | null = null;
  if (checks.migrations === "ok")
    embeddings = await withTimeout(embeddingProgress(), 2000, "embedding generations").catch(
      () => null,
    );
  return { ready: problems.length === 0, checks, problems, embeddings };
}
