// Each periodic task once on one large tenant (issue 23): `node_modules/.bin/bun run
// bench/periodic.ts [--count=100000]` (the 1M tier: --count=1000000). Loads --count memories into
// one agent of one tenant as the owner (SQL, postings triggers and all; 10% expired, a backlog of
// pending audit rows of count/10), then times importance decay, the TTL sweep, the retention cap
// (cap count/2, so half the agent goes) and the audit drain, each through its domain function, on a
// throwaway database.
import postgres from "postgres";
import { drainAudit } from "../src/domain/audit/drain";
import { decayImportance } from "../src/domain/memories/decay-importance";
import { enforceRetentionCaps } from "../src/domain/memories/retention";
import { sweepExpiredMemories } from "../src/domain/memories/sweep-expired";
import { startBenchApp } from "./lib/bench-app";

const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const COUNT = flag("count", 100_000);
const LOAD_STEP = 20_000;

const app = await startBenchApp("periodic");
const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
try {
  console.error(`loading ${COUNT} memories into one agent …`);
  for (let at = 0; at < COUNT; at += LOAD_STEP) {
    await owner.begin(async (sql) => {
      await sql`SELECT set_config('app.current_org_id', ${app.orgId}, true)`;
      await sql`
        INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash,
                              memory_type, importance, created_at, valid_from, expires_at)
        SELECT ${app.orgId}, 'mem_' || lpad(g::text, 26, '0'), 1, 'big',
               'periodic note ' || g || ' about topic ' || (g % 997), sha256(g::text::bytea),
               'semantic', (g % 13) / 13.0, now() - interval '30 days', now() - interval '30 days',
               CASE WHEN g % 10 = 0 THEN now() - interval '1 day' END
        FROM generate_series(${at + 1}::int, ${Math.min(COUNT, at + LOAD_STEP)}::int) AS g`;
      await sql`
        INSERT INTO audit_pending (org_id, operation, agent_id, target_ids, detail)
        SELECT ${app.orgId}, 'store', 'big', ARRAY['mem_' || lpad(g::text, 26, '0')], '{}'::jsonb
        FROM generate_series(${at + 1}::int, ${Math.min(COUNT, at + LOAD_STEP)}::int) AS g
        WHERE g % 10 = 0`;
    });
  }
  await app.analyze();

  const rows: Array<[string, number, number]> = [];
  const time = async (name: string, run: () => Promise<number>) => {
    const started = performance.now();
    const done = await run();
    rows.push([name, done, (performance.now() - started) / 1000]);
  };
  const now = new Date();
  await time("svc.decay_importance", () =>
    decayImportance(app.deps.db, now, { halfLifeHours: 24, floor: 0.2 }),
  );
  await time("svc.sweep_expired_memories", () => sweepExpiredMemories(app.deps.db, now));
  await time("svc.enforce_retention_caps", () =>
    enforceRetentionCaps(app.deps.db, Math.floor(COUNT / 2)),
  );
  await time("svc.audit_drain", async () => (await drainAudit(app.deps.db)).drained);

  console.log(`| task (one run, ${COUNT.toLocaleString("en-US")} memories) | rows | seconds |`);
  console.log("|---|---:|---:|");
  for (const [name, done, seconds] of rows)
    console.log(`| ${name} | ${done.toLocaleString("en-US")} | ${seconds.toFixed(2)} |`);
} finally {
  await owner.end();
  await app.stop();
}
