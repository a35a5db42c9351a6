// GET /v1/memories and GET /v1/agents cost at scale: fills one tenant of a throwaway database with
// `rows` memories over `agents` agents, then times the listing's domain calls (p50/p95 over
// `runs`). Run: node_modules/.bin/bun run bench/memories-list.ts [rows=100000] [agents=50]
// [runs=30]
import postgres from "postgres";
import { migrate } from "../src/data/migrate";
import { openPostgres } from "../src/data/pools";
import { withTenant } from "../src/data/with-tenant";
import { systemActor } from "../src/domain/actor";
import { ensureOrg } from "../src/domain/keys/bootstrap";
import { listAgents } from "../src/domain/memories/agents";
import { listMemories, type MemoryListQuery } from "../src/domain/memories/list";

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://svc:svc@127.0.0.1:5432/svc";
const rows = Number(process.argv[2] ?? 100_000);
const agents = Number(process.argv[3] ?? 50);
const runs = Number(process.argv[4] ?? 30);
const name = `svc_bench_list_${process.pid}`;
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${name}`); // generated name, not input
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const db = openPostgres(url.toString(), undefined, {
  max: 2,
  statementTimeoutMs: 120_000,
  applicationName: "bench-list",
});

async function timed(
  label: string,
  call: () => Promise<unknown>,
): Promise<[string, { p50: number; p95: number }]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  samples.sort((x, y) => x - y);
  const at = (q: number) =>
    Number(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(2));
  return [label, { p50: at(0.5), p95: at(0.95) }];
}

try {
  await migrate(db.primary);
  const orgId = await ensureOrg(db, "bench-list");
  const actor = systemActor(orgId);
  for (let done = 0; done < rows; done += 10_000) {
    const n = Math.min(10_000, rows - done);
    await withTenant(
      db,
      orgId,
      (tx) => tx`
      INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, metadata, created_at)
      SELECT ${orgId}, 'mem_bench' || lpad((${done} + i)::text, 18, '0'), 1, 'agent-' || ((${done} + i) % ${agents}),
             'memory number ' || (${done} + i), sha256(((${done} + i)::text)::bytea),
             CASE WHEN i % 5 = 0 THEN 'episodic' ELSE 'semantic' END,
             jsonb_build_object('user', 'u' || ((${done} + i) % 500)),
             now() - make_interval(secs => ${rows} - (${done} + i))
      FROM generate_series(1, ${n}) AS i`,
    );
  }
  const owner = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await owner`VACUUM (ANALYZE) memories`; // steady state: visibility map set, statistics fresh
  await owner.end();
  const page = (q: MemoryListQuery) => listMemories(db, actor, q);
  const deep = await page({ agent_id: "agent-7", limit: 200 });
  const results = Object.fromEntries([
    await timed("agent first page (50)", () => page({ agent_id: "agent-7" })),
    await timed("agent page after a cursor", () =>
      page({ agent_id: "agent-7", cursor: deep.next_cursor! }),
    ),
    await timed("all agents first page (50)", () => page({})),
    await timed("agent + memory_type", () =>
      page({ agent_id: "agent-7", memory_type: "episodic" }),
    ),
    await timed("metadata.user (1 in 500)", () => page({ metadata: [["user", "u42"]] })),
    await timed("agent + metadata.user", () =>
      page({ agent_id: "agent-7", metadata: [["user", "u42"]] }),
    ),
    await timed("GET /v1/agents page (50)", () => listAgents(db, actor, {})),
  ]);
  const plans = process.env.BENCH_EXPLAIN
    ? await withTenant(db, orgId, async (tx) => ({
        agents: (
          await tx`EXPLAIN ANALYZE SELECT m.agent_id, count(*) FROM memories m
      WHERE (m.valid_to IS NULL OR m.deleted_at IS NOT NULL) GROUP BY m.agent_id ORDER BY m.agent_id LIMIT 51`
        ).map((r: any) => r["QUERY PLAN"]),
        metadata: (
          await tx`EXPLAIN ANALYZE SELECT memory_id FROM memories WHERE valid_to IS NULL
      AND metadata @> '{"user":"u42"}'::jsonb ORDER BY created_at DESC, memory_id DESC LIMIT 51`
        ).map((r: any) => r["QUERY PLAN"]),
      }))
    : undefined;
  const result = { rows, agents, runs, ms: results, plans };
  console.log(JSON.stringify(result, null, 2));
  await Bun.write(
    `bench/results/memories-list-${new Date().toISOString().slice(0, 19).replace(/:/g, "")}.json`,
    JSON.stringify(result, null, 2),
  );
} finally {
  await db.close();
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
