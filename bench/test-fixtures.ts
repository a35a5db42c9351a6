// The test suite's per-file fixed costs, before and after the migrated templates (on demand):
// `node_modules/.bin/bun run bench/test-fixtures.ts [--runs=3]`. Before = a new database migrated
// from empty and a PGlite directory from initdb; after = a clone of
// test/harness/template-database.ts's template and a copy of test/harness/pglite-template.ts's
// directory. Same run, alternating.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openEmbedded } from "../src/data/embedded";
import { migrate } from "../src/data/migrate";
import { grantServingLogin } from "../src/data/queries/serving-login";
import { databaseUrlFor, TEST_ADMIN_DATABASE_URL, TEST_SERVING_LOGIN } from "../test/harness/env";
import { seedEmbeddedDataDir } from "../test/harness/pglite-template";
import { cloneTemplate } from "../test/harness/template-database";

const RUNS = Number(process.argv.find((a) => a.startsWith("--runs="))?.split("=")[1] ?? "3");
const admin = postgres(TEST_ADMIN_DATABASE_URL, { max: 1, onnotice: () => {} });

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function migratedFromEmpty(name: string): Promise<void> {
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const sql = postgres(databaseUrlFor(name), { max: 1, onnotice: () => {} });
  await migrate(sql);
  await grantServingLogin(sql, TEST_SERVING_LOGIN);
  await sql.end();
}

async function embedded(seed: boolean): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-bench-fixtures-"));
  if (seed) await seedEmbeddedDataDir(dir);
  const db = await openEmbedded(dir, { statementTimeoutMs: 60_000, applicationName: "bench" });
  await migrate(db.primary);
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}

const rows: Record<string, number[]> = {};
const add = (label: string, ms: number) => void (rows[label] ??= []).push(ms);
await cloneTemplate(admin, `svc_bench_warm_${process.pid}`); // builds the templates outside the timing
await admin.unsafe(`DROP DATABASE svc_bench_warm_${process.pid}`);
const warm = mkdtempSync(path.join(tmpdir(), "svc-bench-fixtures-"));
await seedEmbeddedDataDir(warm);
rmSync(warm, { recursive: true, force: true });
for (let run = 0; run < RUNS; run++) {
  for (const how of ["migrate", "clone"] as const) {
    const name = `svc_bench_${how}_${process.pid}_${run}`;
    const work =
      how === "migrate" ? () => migratedFromEmpty(name) : () => cloneTemplate(admin, name);
    add(
      `PostgreSQL database: ${how === "migrate" ? "create + migrate" : "clone"}`,
      await timed(work),
    );
    add("PostgreSQL database: drop", await timed(() => admin.unsafe(`DROP DATABASE ${name}`)));
  }
  add("PGlite: initdb + migrate", await timed(() => embedded(false)));
  add("PGlite: copy + open", await timed(() => embedded(true)));
}
await admin.end();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`| fixed cost (${RUNS} runs) | median ms | min ms | max ms |\n|---|---:|---:|---:|`);
for (const [label, xs] of Object.entries(rows))
  console.log(
    `| ${label} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`,
  );
