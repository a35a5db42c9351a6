// Refine pass throughput: seeds one agent's graph in a throwaway database (memos, edges,
// provenance, pending feedback), runs every pass once through svc.refine_run's body, and prints
// each pass's time. Run: node_modules/.bin/bun run bench/refine.ts [memos=50000] [edges=200000]
import postgres from "postgres";
import type { Deps } from "../src/operations/deps";
import { loadConfig } from "../src/config/load";
import type { Config } from "../src/config/schema";
import { migrate } from "../src/data/migrate";
import { openPostgres } from "../src/data/pools";
import {
  insertEdges,
  insertMemos,
  insertMemoSources,
  type NewEdge,
  type NewMemo,
} from "../src/data/queries/forge/refine/graph-writes";
import { withTenant } from "../src/data/with-tenant";
import { systemActor } from "../src/domain/actor";
import { insertRefineJob } from "../src/domain/forge/refine/request";
import { runRefineJob } from "../src/domain/forge/refine/run";
import { PASS_ORDER } from "../src/domain/forge/refine/pass-names";
import { progressOf } from "../src/domain/forge/refine/progress";
import { normalizeName } from "../src/domain/graph/normalize";
import { newId } from "../src/lib/ids";
import { ensureOrg } from "../src/domain/keys/bootstrap";
import { createLogger } from "../src/observability/log";
import { rng } from "./lib/corpus";

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://svc:svc@127.0.0.1:5432/svc";
const memoCount = Number(process.argv[2] ?? 50_000);
const edgeCount = Number(process.argv[3] ?? 200_000);
const name = `svc_bench_refine_${process.pid}`;
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${name}`); // generated name, not input
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const db = openPostgres(url.toString(), undefined, {
  max: 4,
  statementTimeoutMs: 600_000,
  applicationName: "bench-refine",
});
const random = rng(42);
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;

/**
 * The graph: memos of mixed types, 2% of them duplicated under a shared ontology URI, edges with a
 * skewed degree (a few hubs), a relation mix with transitive (LOCATED_IN, PART_OF) and inverse
 * (REPORTS_TO) relations, memories grounding 3 memos each (memo_sources only: no memory rows are
 * needed), and one feedback signal per 100 edges.
 */
async function seed(orgId: string) {
  const types = ["PERSON", "ORG", "PLACE", "TOOL", "CONCEPT"];
  const memos: NewMemo[] = Array.from({ length: memoCount }, (_, i) => {
    const memoName = `Entity ${i} ${pick(["alpha", "beta", "gamma", "delta", "omega"])}`;
    return {
      memo_id: newId("memo"),
      agent_id: "agent",
      memo_type: types[i % types.length]!,
      name: memoName,
      normalized_name: normalizeName(memoName),
      origin: "extracted" as const,
    };
  });
  const duplicates = Math.floor(memoCount * 0.02);
  for (let i = 0; i < duplicates; i++) {
    const original = memos[i]!;
    original.ontology_uri = `urn:bench:${i}`;
    memos.push({
      ...original,
      memo_id: newId("memo"),
      name: `${original.name} (dup)`,
      normalized_name: `${original.normalized_name} dup`,
    });
  }
  const relations = [
    "LOCATED_IN",
    "PART_OF",
    "REPORTS_TO",
    "KNOWS",
    "USES",
    "WORKS_ON",
    "RELATED_TO",
    "HAS",
    "OWNS",
    "DEPENDS_ON",
  ];
  // Skewed ends: squaring a uniform draw favours low indexes, so the first memos become hubs.
  const end = () => memos[Math.floor(random() ** 2 * memos.length)]!.memo_id;
  const edges: NewEdge[] = [];
  for (let i = 0; i < edgeCount; i++) {
    const [src, dst] = [end(), memos[Math.floor(random() * memos.length)]!.memo_id];
    if (src === dst) continue;
    edges.push({
      edge_id: newId("edge"),
      agent_id: "agent",
      src_memo_id: src,
      dst_memo_id: dst,
      relation: pick(relations),
      fact: `fact ${i}`,
      origin: "extracted",
      confidence: 0.8,
      weight: 0.3 + random() * 0.7,
    });
  }
  const memories = Math.floor(memoCount / 3);
  await withTenant(db, orgId, async (tx) => {
    await insertMemos(tx, orgId, memos);
    await insertEdges(tx, orgId, edges, true);
    await insertMemoSources(
      tx,
      orgId,
      Array.from({ length: memories * 3 }, (_, i) => ({
        memo_id: memos[(i * 7919) % memos.length]!.memo_id,
        memory_id: `mem_bench${Math.floor(i / 3) + 1}`,
        memory_version: 1,
      })),
    );
    await tx`INSERT INTO feedback (org_id, feedback_id, agent_id, target_kind, target_id, signal)
      SELECT ${orgId}, 'fb_' || lpad(g::text, 26, '0'), 'agent', 'edge', e.edge_id, (g % 3) - 1
      FROM (SELECT edge_id, row_number() OVER (ORDER BY edge_id) AS g FROM edges WHERE org_id = ${orgId}) e WHERE g % 100 = 0`;
  });
  return { memos: memos.length, edges: edges.length, duplicates };
}

try {
  await migrate(db.primary);
  const orgId = await ensureOrg(db, "bench-refine");
  const seeded = await seed(orgId);
  // Fresh bulk-loaded tables: give the planner statistics, as autovacuum would before a scheduled
  // run.
  await db.primary`ANALYZE`;
  const config = loadConfig({}, { REFINE_ENABLED: true } as Partial<Config>);
  const deps = {
    db,
    config,
    log: createLogger("error"),
    llm: { name: "local" },
  } as unknown as Deps;
  const jobId = await withTenant(
    db,
    orgId,
    async (tx) =>
      (
        await insertRefineJob(tx, systemActor(orgId), {
          agent_id: "agent",
          dataset_id: null,
          passes: [...PASS_ORDER],
          dry_run: false,
          trigger: "api",
          key_id: null,
          request_id: null,
        })
      ).job_id,
  );
  const started = performance.now();
  const outcome = await runRefineJob(deps, orgId, jobId, true);
  const total = (performance.now() - started) / 1000;
  const [job] = await withTenant(
    db,
    orgId,
    (tx) => tx`SELECT progress FROM jobs WHERE job_id = ${jobId}`,
  );
  const progress = progressOf(job!.progress, [...PASS_ORDER]);
  console.log(
    `refine over ${seeded.memos.toLocaleString("en-US")} memos / ${seeded.edges.toLocaleString("en-US")} edges (${seeded.duplicates} ontology duplicates), REFINE_BATCH_SIZE ${config.REFINE_BATCH_SIZE}: ${outcome.state}, ${total.toFixed(1)} s`,
  );
  console.log("| pass | seconds | batches | counts |");
  console.log("|---|---|---|---|");
  for (const pass of PASS_ORDER) {
    const p = progress.passes[pass]!;
    console.log(
      `| ${pass} | ${(p.duration_ms / 1000).toFixed(2)} | ${p.batches} | ${Object.entries(p.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")} |`,
    );
  }
} finally {
  await db.close();
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
