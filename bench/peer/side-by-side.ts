// The side-by-side table: svc and each mem0ai peer that ran at a tier, like against like — batch
// against batch, single against single at the same concurrency, search against recall one at a time
// with the same top_k and agent filter, and each system's vector query alone.
import type { Latency } from "../lib/stats";
import { fmt } from "../lib/format";
import type { PeerRun } from "./run-peers";

export type SvcFigures = {
  tier: string;
  memories: number;
  batchStorePerSecond: number;
  singleStore?: Latency;
  recall: Latency;
  sql: { hnswP50: number; hnswP95: number; exactP50: number; exactP95: number };
  peers?: PeerRun[];
};

const label = (p: PeerRun) =>
  p.store === "memory"
    ? "mem0ai OSS, `memory` store (in-process SQLite)"
    : `mem0ai OSS, \`pgvector\` store${p.hnsw ? " (`hnsw: true`)" : ""}`;
const ratio = (n: number | undefined) =>
  n === undefined || !Number.isFinite(n) ? "" : `${fmt(n, 2)}×`;

function tierTable(r: SvcFigures): string[] {
  const peers = r.peers ?? [];
  const lines = [
    "",
    `Side by side at ${r.tier} (same corpus, same embeddings from the same local embedder, same queries; search and recall one at a time, top 10, one agent):`,
    "",
    "| system | batch add /s | single add /s (c=8) | search p50 ms | search p95 ms | search /s (c=1) | vector query alone p50 / p95 ms |",
    "|---|---|---|---|---|---|---|",
    `| svc: \`POST /v1/memories/batch\` (500 per call, 2 in flight); \`POST /v1/memories\`; recall VECTOR over HTTP; HNSW SQL in the tenant transaction | ${fmt(r.batchStorePerSecond)} | ${fmt(r.singleStore?.perSecond)} | ${fmt(r.recall.p50, 2)} | ${fmt(r.recall.p95, 2)} | ${fmt(r.recall.perSecond)} | ${fmt(r.sql.hnswP50, 2)} / ${fmt(r.sql.hnswP95, 2)} |`,
  ];
  for (const p of peers)
    lines.push(
      `| ${label(p)}: \`add(500 messages)\` (2 in flight); \`add(text)\`; \`search\`; \`vectorStore.search\` | ${fmt(p.batchPerSecond)} | ${fmt(p.single.perSecond)} | ${fmt(p.search.p50, 2)} | ${fmt(p.search.p95, 2)} | ${fmt(p.search.perSecond)} | ${fmt(p.vectorOnly.p50, 2)} / ${fmt(p.vectorOnly.p95, 2)} |`,
    );
  lines.push(
    `| exact scan in PostgreSQL (svc's filtered query, index scans off; SQL only) | | | | | | ${fmt(r.sql.exactP50, 2)} / ${fmt(r.sql.exactP95, 2)} |`,
  );
  for (const p of peers) {
    const single = r.singleStore ? ratio(r.singleStore.perSecond / p.single.perSecond) : "";
    lines.push(
      `| **svc ÷ ${p.store === "memory" ? "mem0 memory" : "mem0 pgvector"}** (> 1: svc ahead) | ${ratio(r.batchStorePerSecond / p.batchPerSecond)} | ${single} | ${ratio(p.search.p50 / r.recall.p50)} | ${ratio(p.search.p95 / r.recall.p95)} | ${ratio(r.recall.perSecond / p.search.perSecond)} | ${ratio(p.vectorOnly.p50 / r.sql.hnswP50)} / ${ratio(p.vectorOnly.p95 / r.sql.hnswP95)} |`,
    );
  }
  for (const p of peers) {
    if (!p.plan) continue;
    const how = p.plan.index
      ? `${p.plan.scan} on its index \`${p.plan.index}\``
      : `${p.plan.scan} (its HNSW index unused)`;
    lines.push(
      "",
      `mem0 pgvector's search query (EXPLAIN ANALYZE on its table after the run, LIMIT 60 as \`memory.search\` asks): ${how}; the planner estimated ${fmt(p.plan.estimatedRows, 0)} rows match \`payload->>'agent_id'\`, ${fmt(p.plan.matchedRows, 0)} did; ${fmt(p.plan.ms, 2)} ms. Its database: ${fmt((p.databaseBytes ?? NaN) / 2 ** 20)} MiB for ${fmt(p.added, 0)} memories.`,
    );
  }
  return lines;
}

/**
 * Where a tier ran without the pgvector peer, the load time its measured rate at a smaller tier
 * implies.
 */
function estimates(results: SvcFigures[]): string[] {
  const measured = results.flatMap((r) =>
    (r.peers ?? [])
      .filter((p) => p.store === "pgvector")
      .map((p) => ({ tier: r.tier, rate: p.batchPerSecond })),
  );
  const first = measured[0];
  if (!first) return [];
  return results
    .filter((r) => !(r.peers ?? []).some((p) => p.store === "pgvector") && r.memories > 0)
    .map(
      (r) =>
        `\nmem0 pgvector was not run at ${r.tier}: at its ${first.tier} load rate (${fmt(first.rate)} memories/s, falling as its index grows) ${fmt(r.memories, 0)} memories would take at least ${fmt(r.memories / first.rate / 60)} min. Run it with \`--peer-pgvector=${first.tier},${r.tier}\`.`,
    );
}

export function sideBySide(results: SvcFigures[]): string[] {
  return [...results.filter((r) => r.peers?.length).flatMap(tierTable), ...estimates(results)];
}
