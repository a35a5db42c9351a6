// `bun run bench/noisy-neighbour.ts [--requests=100] [--think-ms=100] [--unbounded]`: tenant B's
// latency alone and while tenant A floods with its worst allowed work, over real HTTP on loopback:
// unanchored CYPHER recalls (a cartesian product that runs to CYPHER_TIMEOUT_MS), MCP batches of
// them, exports read at a trickle, and requests with well-formed unknown keys (throttled per client
// address before authentication: the clients come through one trusted proxy, so each has its
// X-Forwarded-For address). A floods from a process of its own (lib/noisy-flood.ts), so its client
// work does not share the server's event loop, and at the lowest CPU priority (nice 19): in reality
// A's clients run on A's machines, while on one small host its loops would take the server's CPU
// and be counted as the server's slowness. B is an ordinary client: one request at a time,
// alternating a fetch by id and a LEXICAL recall. The rate limit is on, generous enough that A is
// not stopped by it. --unbounded lifts the tenant shares (TENANT_*_CONCURRENCY 1000, the heavy-time
// budget to the whole database) to show what they prevent. Beside each phase it prints where the
// time went: the server's event-loop lag (a 5 ms timer's lateness), the CPU of the server process
// and of the database's backends, and the host's load average.
import { loadavg } from "node:os";
import postgres from "postgres";
import { ConfigSchema } from "../src/config/schema";
import { withTenant } from "../src/data/with-tenant";
import { systemActor } from "../src/domain/actor";
import { createKey } from "../src/domain/keys/manage";
import { ensureOrg } from "../src/domain/keys/bootstrap";
import { seedGraph } from "../test/graph/seed-graph";
import { startBenchApp } from "./lib/bench-app";
import { fmt } from "./lib/format";
import { percentile } from "./lib/stats";
import { cpuMeter, type CpuReading } from "./lib/cpu-meter";
import { loopLag } from "./lib/loop-lag";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}`))?.split("=")[1];
const requests = Number(arg("requests") ?? 100);
/** B's pause between requests, so its requests span several of A's 3 s CYPHER products. */
const thinkMs = Number(arg("think-ms") ?? 100);
const unbounded = process.argv.includes("--unbounded");

const app = await startBenchApp("noisy", {
  RATE_LIMIT_ENABLED: true,
  RATE_LIMIT_REQUESTS: 60_000,
  RATE_LIMIT_BURST: 1000,
  DATABASE_POOL_MAX: 10,
  TRUSTED_PROXY_HOPS: 1,
  ...(unbounded
    ? { TENANT_DB_CONCURRENCY: 1000, TENANT_HEAVY_CONCURRENCY: 1000, TENANT_HEAVY_CPU_SHARE: 1 }
    : { TENANT_HEAVY_CPU_SHARE: ConfigSchema.properties.TENANT_HEAVY_CPU_SHARE.default }),
});
const orgA = await ensureOrg(app.deps.db, "noisy-a");
const keyA = (await createKey(app.deps.db, systemActor(orgA), "bench")).key;
const keyB = app.key;
await seedGraph(
  app.deps.db,
  orgA,
  "noisy",
  Array.from({ length: 12 }, (_, i) => ({ key: `m${i}`, type: "PERSON", name: `Person ${i}` })),
  [],
);
// In chunks: one 20,000-row statement (postings triggers and all) outlasted the statement timeout
// on a loaded host.
for (let from = 1; from <= 20_000; from += 1000)
  await withTenant(
    app.deps.db,
    orgA,
    (tx) => tx`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at)
    SELECT ${orgA}, 'mem_noisy' || g, 1, 'noisy', 'Exported slowly ' || repeat('padding ', 100), sha256(g::text::bytea), 'semantic', now()
    FROM generate_series(${from}::int, ${from + 999}::int) AS g`,
  );
const ids: string[] = [];
for (let i = 0; i < 50; i++)
  ids.push(
    (
      await app.call("POST", "/v1/memories", {
        agent_id: "quiet",
        content: `Quiet note ${i} about the weekly report`,
      })
    ).body.memory_id,
  );

const ADDRESS_A = "203.0.113.10";
const ADDRESS_B = "198.51.100.20";
const http = (path: string, init: RequestInit = {}) =>
  fetch(app.base + path, {
    ...init,
    headers: {
      authorization: `Bearer ${keyB}`,
      "content-type": "application/json",
      "x-forwarded-for": ADDRESS_B,
    },
  });

/** B's requests one at a time: milliseconds of each, and the statuses that were not 200. */
async function quietTenant(): Promise<{ ms: number[]; failed: number[] }> {
  const ms: number[] = [];
  const failed: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const response =
      i % 2 === 0
        ? await http(`/v1/memories/${ids[i % ids.length]}`)
        : await http("/v1/memories/recall", {
            method: "POST",
            body: JSON.stringify({
              agent_id: "quiet",
              query: "weekly report",
              strategy: "LEXICAL",
            }),
          });
    await response.arrayBuffer();
    ms.push(performance.now() - started);
    if (response.status !== 200) failed.push(response.status);
    await Bun.sleep(thinkMs);
  }
  return { ms: ms.sort((x, y) => x - y), failed };
}

type Phase = { ms: number[]; failed: number[]; lagMs: number[]; cpu: CpuReading; seconds: number };
const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
const meter = await cpuMeter(owner);
/** B's requests, with the server's loop lag and CPU over the same seconds. */
async function measured(): Promise<Phase> {
  await meter.refresh();
  const lag = loopLag();
  const cpu = meter.start();
  const started = performance.now();
  const b = await quietTenant();
  return {
    ...b,
    cpu: cpu.stop(),
    lagMs: lag.stop(),
    seconds: (performance.now() - started) / 1000,
  };
}

const loadBefore = loadavg()[0]!;
const alone = await measured();
const floodProcess = Bun.spawn(
  [
    "nice",
    "-n19",
    process.execPath,
    new URL("./lib/noisy-flood.ts", import.meta.url).pathname,
    app.base,
    keyA,
    ADDRESS_A,
  ],
  { stdin: "pipe", stdout: "pipe", stderr: "inherit" },
);
await Bun.sleep(2000); // the flood under way
const flooded = await measured();
const loadAfter = loadavg()[0]!;
floodProcess.stdin.end();
const statuses = Object.entries(
  JSON.parse(await new Response(floodProcess.stdout).text()) as Record<string, number>,
);
await owner.end();
await app.stop();

const row = (label: string, r: Phase) =>
  `| ${label} | ${r.ms.length} | ${fmt(percentile(r.ms, 50), 2)} | ${fmt(percentile(r.ms, 95), 2)} | ${r.failed.length} |`;
const where = (label: string, r: Phase) =>
  `| ${label} | ${fmt(percentile(r.lagMs, 50), 2)} | ${fmt(percentile(r.lagMs, 95), 2)} | ${fmt(percentile(r.lagMs, 100), 1)} | ${fmt(r.cpu.appMs / r.seconds / 10, 1)} | ${fmt(r.cpu.dbMs / r.seconds / 10, 1)} |`;
console.log(
  `Tenant B, ${requests} requests one at a time, ${thinkMs} ms apart${unbounded ? " (tenant shares lifted)" : ""}:\n`,
);
console.log("| B's requests | count | p50 ms | p95 ms | not 200 |");
console.log("|---|---:|---:|---:|---:|");
console.log(row("alone", alone));
console.log(row("while A floods", flooded));
console.log(
  `\nWhere the time went (load average ${fmt(loadBefore, 1)} before, ${fmt(loadAfter, 1)} at the end):\n`,
);
console.log(
  "| phase | loop lag p50 ms | p95 ms | max ms | server CPU % of a core | database CPU % |",
);
console.log("|---|---:|---:|---:|---:|---:|");
console.log(where("alone", alone));
console.log(where("while A floods", flooded));
console.log(
  `\np95 ratio: ${fmt(percentile(flooded.ms, 95) / percentile(alone.ms, 95), 2)}×\n\nA's flood (requests by answer):\n`,
);
console.log("| A's request | status | count |");
console.log("|---|---:|---:|");
for (const [key, n] of statuses.sort())
  console.log(`| ${key.split(" ")[0]} | ${key.split(" ")[1]} | ${n} |`);
