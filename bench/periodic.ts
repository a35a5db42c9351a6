// Each periodic task once on one large tenant (issue 23): `node_modules/.bin/bun run
// bench/periodic.ts [--count=100000] [--keep | --from=<svc_bench_… database>]` (the 1M tier:
// --count=1000000). Loads --count memories into one agent of one tenant as the owner (SQL, postings
// triggers and all; 10% expired, none embedded, a backlog of pending audit rows of count/10), then
// times importance decay, the TTL sweep, the retention cap (cap count/2, so half the agent goes),
// the audit drain and one delivery of the embedding backfill, each through its domain function, on
// a throwaway database loaded by three sessions at once. The tasks change the corpus, so --keep
// keeps the loaded database untouched (its name is printed) and runs them on a file copy of it;
// --from runs them on a new copy of a kept one, without loading again (--tasks: some of them).
import postgres from "postgres";
import { drainAudit } from "../src/domain/audit/drain";
import { decayImportance } from "../src/domain/memories/decay-importance";
import { advanceEmbeddings } from "../src/domain/memories/reembed";
import { enforceRetentionCaps } from "../src/domain/memories/retention";
import { sweepExpiredMemories } from "../src/domain/memories/sweep-expired";
import type { Database, Sql } from "../src/data/pools";
import { type BenchApp, startBenchApp } from "./lib/bench-app";

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [name, value] = a.replace(/^--/, "").split("=");
    return [name!, value ?? ""] as const;
  }),
);
const COUNT = Number(args.get("count") ?? 100_000);
/**
 * --tasks=decay,cap reruns some of the tasks on a copy (with --from; the cap is still count/2);
 * "redecay" (not by default) times decay's second run, after a VACUUM.
 */
const TASKS = new Set((args.get("tasks") ?? "decay,sweep,cap,audit,backfill").split(","));
const LOAD_STEP = 20_000;
/** As svc.generate_embedding delivers: batches of 256, at most 40 per tenant per delivery. */
const BACKFILL_BATCH = 256;
const BACKFILL_BATCHES = 40;

/** Three sessions at once: one loaded 240k in 15 min on a busy machine (triggers and all). */
const LOAD_SESSIONS = 3;

async function load(app: BenchApp): Promise<void> {
  const owner = postgres(app.databaseUrl, { max: LOAD_SESSIONS, onnotice: () => {} });
  try {
    const started = performance.now();
    let next = 0;
    const step = async (at: number) => {
      const last = Math.min(COUNT, at + LOAD_STEP);
      await owner.begin(async (sql) => {
        await sql`SELECT set_config('app.current_org_id', ${app.orgId}, true)`;
        await sql`
          INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash,
                                memory_type, importance, created_at, valid_from, expires_at)
          SELECT ${app.orgId}, 'mem_' || lpad(g::text, 26, '0'), 1, 'big',
                 'periodic note ' || g || ' about topic ' || (g % 997), sha256(g::text::bytea),
                 'semantic', (g % 13) / 13.0, now() - interval '30 days', now() - interval '30 days',
                 CASE WHEN g % 10 = 0 THEN now() - interval '1 day' END
          FROM generate_series(${at + 1}::int, ${last}::int) AS g`;
        await sql`
          INSERT INTO audit_pending (org_id, operation, agent_id, target_ids, detail)
          SELECT ${app.orgId}, 'store', 'big', ARRAY['mem_' || lpad(g::text, 26, '0')], '{}'::jsonb
          FROM generate_series(${at + 1}::int, ${last}::int) AS g
          WHERE g % 10 = 0`;
      });
      if ((at / LOAD_STEP) % 10 === 9) console.error(`  ${last} loaded`);
    };
    const session = async () => {
      for (let at = next; at < COUNT; at = next) {
        next += LOAD_STEP;
        await step(at);
      }
    };
    await Promise.all(Array.from({ length: LOAD_SESSIONS }, session));
    console.error(`loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await owner.end();
  }
  await app.analyze();
}

/** The same pools, counting the transactions opened through them: one per chunk or batch. */
function countingTransactions(db: Database): { db: Database; transactions: () => number } {
  let opened = 0;
  const wrap = (sql: Sql): Sql =>
    new Proxy(sql, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== "begin") return value;
        return (...begin: unknown[]) => {
          opened++;
          return (value as (...a: unknown[]) => unknown).apply(target, begin);
        };
      },
    });
  const primary = wrap(db.primary);
  const read = db.read === db.primary ? primary : wrap(db.read);
  return { db: { ...db, primary, read }, transactions: () => opened };
}

const loadAverage = async () => (await Bun.file("/proc/loadavg").text()).split(" ")[0]!;

async function corpus(): Promise<BenchApp> {
  const from = args.get("from");
  if (from !== undefined) return startBenchApp("periodic", {}, { copyOf: from });
  const keep = args.has("keep");
  const loaded = await startBenchApp("periodic", {}, { keep });
  try {
    console.error(`loading ${COUNT} memories into one agent …`);
    await load(loaded);
  } catch (error) {
    await loaded.stop();
    throw error;
  }
  if (!keep) return loaded;
  await loaded.stop();
  console.error(`kept the loaded database ${loaded.databaseName}`);
  return startBenchApp("periodic", {}, { copyOf: loaded.databaseName });
}

const app = await corpus();
try {
  const counted = countingTransactions(app.deps.db);
  const db = counted.db;
  const rows: string[][] = [];
  const time = async (task: string, name: string, run: () => Promise<number>) => {
    if (!TASKS.has(task)) return;
    const before = counted.transactions();
    const loadBefore = await loadAverage();
    const started = performance.now();
    const done = await run();
    const seconds = (performance.now() - started) / 1000;
    rows.push([
      name,
      done.toLocaleString("en-US"),
      seconds.toFixed(2),
      (counted.transactions() - before).toLocaleString("en-US"),
      Math.round(done / seconds).toLocaleString("en-US"),
      `${loadBefore}–${await loadAverage()}`,
    ]);
    console.error(rows.at(-1)!.join("  "));
  };
  const now = new Date();
  await time("decay", "svc.decay_importance", () =>
    decayImportance(db, now, { halfLifeHours: 24, floor: 0.2 }),
  );
  // The steady state: the next hourly run, with the service's defaults (the first run's 24 h from
  // 30 days old leaves every row at its floor), once VACUUM has pruned the first run's old versions
  // (how much of decay's update stays on its page, HOT, depends on that free space).
  if (TASKS.has("redecay")) await app.analyze();
  await time("redecay", "svc.decay_importance (next hour, 720 h, floor 0.05)", () =>
    decayImportance(db, new Date(now.getTime() + 3_600_000), { halfLifeHours: 720, floor: 0.05 }),
  );
  await time("sweep", "svc.sweep_expired_memories", () => sweepExpiredMemories(db, now));
  await time("cap", "svc.enforce_retention_caps", () =>
    enforceRetentionCaps(db, Math.floor(COUNT / 2)),
  );
  await time("audit", "svc.audit_drain", async () => (await drainAudit(db)).drained);
  await time(
    "backfill",
    `svc.generate_embedding (${BACKFILL_BATCHES} × ${BACKFILL_BATCH})`,
    async () => {
      const deps = { db, embeddings: app.deps.embeddings, log: app.deps.log };
      return (await advanceEmbeddings(deps, app.orgId, BACKFILL_BATCH, BACKFILL_BATCHES)).embedded;
    },
  );

  const tier = `${COUNT.toLocaleString("en-US")} memories`;
  console.log(`| task (one run, ${tier}) | rows | seconds | transactions | rows/s | load |`);
  console.log("|---|---:|---:|---:|---:|---|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
} finally {
  await app.stop();
}
