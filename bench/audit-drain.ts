// Audit drain throughput: fills audit_pending for a few orgs in a throwaway database, then times
// drainAudit until empty. Run: node_modules/.bin/bun run bench/audit-drain.ts [rows=50000] [orgs=4]
import postgres from "postgres";
import { openPostgres } from "../src/data/pools";
import { migrate } from "../src/data/migrate";
import { withTenant } from "../src/data/with-tenant";
import { systemActor } from "../src/domain/actor";
import { drainAudit } from "../src/domain/audit/drain";
import { verifyOrgChain } from "../src/domain/audit/list";
import { recordAudit } from "../src/domain/audit/record";
import { ensureOrg } from "../src/domain/keys/bootstrap";

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://svc:svc@127.0.0.1:5432/svc";
const rows = Number(process.argv[2] ?? 50_000);
const orgCount = Number(process.argv[3] ?? 4);
const name = `svc_bench_audit_${process.pid}`;
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${name}`); // generated name, not input
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const db = openPostgres(url.toString(), undefined, {
  max: 4,
  statementTimeoutMs: 60_000,
  applicationName: "bench-audit",
});
try {
  await migrate(db.primary);
  const orgs = await Promise.all(
    Array.from({ length: orgCount }, (_, i) => ensureOrg(db, `bench-${i}`)),
  );
  const perOrg = Math.ceil(rows / orgCount);
  for (const orgId of orgs) {
    for (let done = 0; done < perOrg; done += 1000) {
      await withTenant(db, orgId, (tx) =>
        recordAudit(
          tx,
          systemActor(orgId, "req_bench"),
          Array.from({ length: Math.min(1000, perOrg - done) }, (_, i) => ({
            operation: "store" as const,
            agentId: `agent-${i % 10}`,
            targetIds: [`mem_${done + i}`],
            detail: { bytes: 100 + i, chunk: done },
          })),
        ),
      );
    }
  }
  const started = performance.now();
  const { drained } = await drainAudit(db, { batchSize: 1000 });
  const seconds = (performance.now() - started) / 1000;
  const verified = await Promise.all(orgs.map((o) => verifyOrgChain(db, o)));
  const result = {
    rows: drained,
    orgs: orgCount,
    seconds: Number(seconds.toFixed(2)),
    rows_per_second: Math.round(drained / seconds),
    chains_verify: verified.every((v) => v.ok),
  };
  console.log(JSON.stringify(result));
  await Bun.write(
    `bench/results/audit-drain-${new Date().toISOString().slice(0, 19).replace(/:/g, "")}.json`,
    JSON.stringify(result, null, 2),
  );
} finally {
  await db.close();
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
