// Runs once per `bun test`: creates a fresh database (template1 carries pgvector), migrates it as the owner,
// grants the serving login (as `svc migrate` does), and drops it at the end, so concurrent runs and earlier
// runs never see each other's rows.
import { afterAll } from "bun:test";
import postgres from "postgres";
import { migrate } from "../../src/data/migrate";
import { grantServingLogin } from "../../src/data/queries/serving-login";
import { databaseUrlFor, TEST_ADMIN_DATABASE_URL, TEST_SERVING_LOGIN } from "./env";
import { verifyEveryAuditChain } from "./final-audit-check";

const name = `svc_t_${process.pid}_${Date.now().toString(36)}`;
const admin = postgres(TEST_ADMIN_DATABASE_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${name}`); // name is generated above, not user input
process.env.SVC_TEST_DATABASE_URL = databaseUrlFor(name);

const migrator = postgres(process.env.SVC_TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
await migrate(migrator);
const serving = await migrator`SELECT 1 FROM pg_roles WHERE rolname = ${TEST_SERVING_LOGIN}`;
if (serving.length === 0) throw new Error(`the serving login "${TEST_SERVING_LOGIN}" does not exist: run scripts/setup-services.sh (as root) first`);
await grantServingLogin(migrator, TEST_SERVING_LOGIN);
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
