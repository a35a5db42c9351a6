// Runs once per `bun test`: creates a fresh database, migrates it as the owner, grants the serving login
// (as `svc migrate` does), and drops it at the end with the run's Valkey keys, so concurrent runs and
// earlier runs never see each other's rows.
import { afterAll } from "bun:test";
import { createMigratedDatabase, dropDatabase } from "./databases";
import { verifyEveryAuditChain } from "./final-audit-check";
import { deleteTestKeys } from "./valkey-cleanup";

const name = `svc_t_${process.pid}_${Date.now().toString(36)}`;
process.env.SVC_TEST_DATABASE_URL = await createMigratedDatabase(name);

afterAll(async () => {
  try {
    const checked = await verifyEveryAuditChain(process.env.SVC_TEST_DATABASE_URL!);
    console.log(`audit chains verified after the run: ${checked.orgs} orgs, ${checked.rows} rows`);
  } finally {
    if (process.env.SVC_TEST_KEEP_DATABASE !== "1") await dropDatabase(name);
    await deleteTestKeys();
  }
}, 120_000);
