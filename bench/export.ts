// `bun run bench/export.ts [--tier=100k|1m|100k,1m]`: the export's cost against the tenant's size.
// Each tier is one tenant of N memories (about 300 bytes of content each, no vector, so the figure
// is the paging and not the JSON of 1,536 floats), exported through exportTenant to a sink that
// counts bytes: the same code as GET /v1/export and `svc export`, without the network. Linear
// paging shows as a flat rows/s column.
import { withTenant } from "../src/data/with-tenant";
import { exportTenant } from "../src/domain/export/export";
import { ensureOrg } from "../src/domain/keys/bootstrap";
import { startBenchApp } from "./lib/bench-app";
import { fmt } from "./lib/format";

const SIZES: Record<string, number> = { "10k": 10_000, "100k": 100_000, "1m": 1_000_000 };
const tierArg =
  process.argv.find((a) => a.startsWith("--tier="))?.slice("--tier=".length) ?? "100k";
const tiers = tierArg.split(",").map((t) => {
  if (!(t in SIZES)) throw new Error(`unknown tier ${t}; use ${Object.keys(SIZES).join(", ")}`);
  return t;
});
const SEED_CHUNK = 10_000;

const app = await startBenchApp("export");
const rows: string[] = [];
try {
  for (const tier of tiers) {
    const size = SIZES[tier]!;
    const orgId = await ensureOrg(app.deps.db, `bench-export-${tier}`);
    const seedStart = performance.now();
    for (let from = 1; from <= size; from += SEED_CHUNK) {
      const to = Math.min(size, from + SEED_CHUNK - 1);
      await withTenant(
        app.deps.db,
        orgId,
        (tx) => tx`
        INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at)
        SELECT ${orgId}, 'mem_' || lpad(g::text, 8, '0'), 1, 'agent-' || (g % 100),
          'Memory ' || g || ' of the export bench: ' || repeat('the quick brown fox jumps over the lazy dog ', 6),
          sha256(g::text::bytea), 'semantic', now()
        FROM generate_series(${from}::int, ${to}::int) AS g`,
      );
    }
    const seedSeconds = (performance.now() - seedStart) / 1000;
    let bytes = 0;
    const started = performance.now();
    const { rows: exported } = await exportTenant(app.deps.db, orgId, "bench", async (chunk) => {
      bytes += chunk.length;
    });
    const seconds = (performance.now() - started) / 1000;
    rows.push(
      `| ${tier} | ${fmt(exported, 0)} | ${fmt(bytes / 1e6)} | ${fmt(seconds, 2)} | ${fmt(exported / seconds, 0)} | ${fmt(seedSeconds)} |`,
    );
    console.error(
      `${tier}: ${exported} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s`,
    );
  }
} finally {
  await app.stop();
}
console.log("| tier | rows exported | MB | export s | rows/s | seed s |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
