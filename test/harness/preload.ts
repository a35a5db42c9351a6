// Runs once per `bun test`: creates a fresh database (template1 carries pgvector), migrates it, and
// drops it at the end, so concurrent runs and earlier runs never see each other's rows.
import { afterAll } from "bun:test";
import postgres from "postgres";
import { migrate } from "../../src/data/migrate";
import { databaseUrlFor, TEST_ADMIN_DATABASE_URL } from "./env";
import { verifyEveryAuditChain } from "./final-audit-check";

const name = `svc_t_${process.pid}_${Date.now().toString(36)}`;
const admin = postgres(TEST_ADMIN_DATABASE_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${name}`); // name is generated above, not user input
process.env.SVC_TEST_DATABASE_URL = databaseUrlFor(name);

const migrator = postgres(process.env.SVC_TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
await migrate(migrator);
await migrator.end();

afterAll(async () => {
  try {
    const checked = await verifyEveryAuditChain(process.env.SVC_TEST_DATABASE_URL!);
    console.log(`audit chains verified after the run: ${checked.orgs} orgs, ${checked.rows} rows`);
  } finally {
    if (process.env.SVC_TEST_KEEP_DATABASE !== "1") await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}, 120_000);
