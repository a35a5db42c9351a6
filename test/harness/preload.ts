// Runs before the test files of one process (once per `bun test`; once per file with --parallel,
// which isolates each file): creates a fresh migrated database for them and drops it afterwards
// with the process's Valkey keys, so concurrent files and runs, and earlier ones, never see each
// other's rows.
import { afterAll } from "bun:test";
import { createMigratedDatabase, dropDatabase } from "./databases";
import { verifyEveryAuditChain } from "./final-audit-check";
import { deleteTestKeys } from "./valkey-cleanup";

const name = `svc_t_${process.pid}_${Date.now().toString(36)}`;
process.env.SVC_TEST_DATABASE_URL = await createMigratedDatabase(name);

afterAll(async () => {
  try {
    const checked = await verifyEveryAuditChain(process.env.SVC_TEST_DATABASE_URL!);
    console.log(`audit chains verified afterwards: ${checked.orgs} orgs, ${checked.rows} rows`);
  } finally {
    if (process.env.SVC_TEST_KEEP_DATABASE !== "1") await dropDatabase(name);
    await deleteTestKeys();
  }
}, 120_000);
