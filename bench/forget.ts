// Forget of large batches (on demand): `node_modules/.bin/bun run bench/forget.ts [--count=3000]`.
// Stores --count memories (batch route), distills them into the graph (POST /v1/distill, the real
// worker in this process), recalls so they carry access counters, then forgets them 1,000 per POST
// /v1/memories/forget and through the retention cap (svc.enforce_retention_caps' domain function):
// memories per second with every derived row (postings, graph provenance, edges and memos, access
// counters, audit) in the same transaction, on a throwaway database.
import { graphWorld, personMemory } from "./lib/graph-corpus";
import { startBenchApp, type BenchApp } from "./lib/bench-app";
import { enforceRetentionCaps } from "../src/domain/memories/retention";
import { withTenantRead } from "../src/data/with-tenant";
import { startWorker } from "../src/queue/worker";

const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const COUNT = flag("count", 3000);

async function fill(app: BenchApp, agent: string): Promise<string[]> {
  const world = graphWorld(Math.max(COUNT, 100), 5);
  const ids: string[] = [];
  for (let at = 0; at < COUNT; at += 500) {
    const memories = Array.from({ length: Math.min(500, COUNT - at) }, (_, i) => ({
      agent_id: agent,
      content: personMemory(world, at + i),
    }));
    const res = await app.call("POST", "/v1/memories/batch", { memories });
    if (res.status !== 201)
      throw new Error(
        `batch store answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    ids.push(...res.body.memories.map((m: { memory_id: string }) => m.memory_id));
  }
  const worker = await startWorker(app.deps);
  try {
    for (let at = 0; at < ids.length; at += 1000) {
      const res = await app.call("POST", "/v1/distill", {
        agent_id: agent,
        memory_ids: ids.slice(at, at + 1000),
      });
      if (res.status !== 202)
        throw new Error(`POST /v1/distill answered ${res.status}: ${JSON.stringify(res.body)}`);
      for (;;) {
        const job = await app.call("GET", `/v1/distill/${res.body.job_id}`);
        if (["succeeded", "failed", "rejected"].includes(job.body.state)) break;
        await Bun.sleep(100);
      }
    }
  } finally {
    await worker.close();
  }
  for (const query of ["works at", "lives in", "knows", "manager", "likes"]) {
    await app.call("POST", "/v1/memories/recall", {
      agent_id: agent,
      query,
      top_k: 100,
      strategy: "LEXICAL",
    });
  }
  return ids;
}

async function derivedRows(app: BenchApp, agent: string) {
  return withTenantRead(
    app.deps.db,
    app.orgId,
    async (tx) =>
      (
        await tx`SELECT
    (SELECT count(*)::int FROM memory_terms WHERE agent_id = ${agent}) AS postings,
    (SELECT count(*)::int FROM edge_sources s JOIN edges e USING (org_id, edge_id) WHERE e.agent_id = ${agent}) AS edge_sources,
    (SELECT count(*)::int FROM memo_sources s JOIN memos m USING (org_id, memo_id) WHERE m.agent_id = ${agent}) AS memo_sources,
    (SELECT count(*)::int FROM edges WHERE agent_id = ${agent} AND expired_at IS NULL) AS live_edges,
    (SELECT count(*)::int FROM memory_access a JOIN memories m USING (org_id, memory_id) WHERE m.agent_id = ${agent}) AS access`
      )[0]!,
  );
}

const app = await startBenchApp("forget", { DISTILL_ENABLED: true, DISTILL_MAX_MEMORY_IDS: 1000 });
try {
  console.error(`storing and distilling ${COUNT} memories …`);
  const ids = await fill(app, "forget-api");
  const before = await derivedRows(app, "forget-api");
  let started = performance.now();
  for (let at = 0; at < ids.length; at += 1000) {
    const res = await app.call("POST", "/v1/memories/forget", {
      memory_ids: ids.slice(at, at + 1000),
    });
    if (res.status !== 200 || res.body.forgotten.length !== Math.min(1000, ids.length - at))
      throw new Error(`forget answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  const apiSeconds = (performance.now() - started) / 1000;
  const after = await derivedRows(app, "forget-api");

  console.error(`storing and distilling ${COUNT} more for the retention cap …`);
  await fill(app, "forget-cap");
  started = performance.now();
  const capped = await enforceRetentionCaps(app.deps.db, 1);
  const capSeconds = (performance.now() - started) / 1000;

  console.log(
    `derived rows before the forget: ${JSON.stringify(before)}; after: ${JSON.stringify(after)}`,
  );
  console.log("| forget path | memories | seconds | memories/s |\n|---|---|---|---|");
  console.log(
    `| POST /v1/memories/forget, 1,000 ids per call | ${ids.length} | ${apiSeconds.toFixed(2)} | ${Math.round(ids.length / apiSeconds).toLocaleString("en-US")} |`,
  );
  console.log(
    `| retention cap (cap 1 per agent) | ${capped} | ${capSeconds.toFixed(2)} | ${Math.round(capped / capSeconds).toLocaleString("en-US")} |`,
  );
} finally {
  await app.stop();
}
