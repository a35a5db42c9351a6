// EXPLAIN (ANALYZE, BUFFERS) of the production VECTOR query's index shape, run as recall runs it
// (tenant transaction, settings), for the bench agent or a given tenant and agent.
import { limitRecallTransaction } from "../../src/data/queries/recall/common";
import { nearestQuery, setHnswSearch } from "../../src/data/queries/recall/vector";
import { withTenant } from "../../src/data/with-tenant";
import { createLocalEmbedder } from "../../src/providers/embeddings/local";
import type { BenchApp } from "./bench-app";
import type { Target } from "./exact-vs-hnsw";
import { AGENT } from "./load-corpus";

export async function explainVector(
  app: BenchApp,
  query: string,
  target: Target = { orgId: app.orgId, agentId: AGENT },
): Promise<string> {
  const { config, db } = app.deps;
  const { vectors } = await createLocalEmbedder(1536).embed([query], { orgId: target.orgId });
  const rows = await withTenant(db, target.orgId, async (tx) => {
    await limitRecallTransaction(tx, 60_000);
    const shape = {
      filter: target,
      vector: vectors[0]!,
      dimensions: 1536,
      limit: 10,
      efSearch: config.RECALL_HNSW_EF_SEARCH,
      maxScanTuples: config.RECALL_HNSW_MAX_SCAN_TUPLES,
      exactMaxRows: config.RECALL_VECTOR_EXACT_MAX_ROWS,
    };
    // The settings vectorSearch gives the index shape (sorts and heap scans priced out).
    await setHnswSearch(
      tx,
      Math.max(config.RECALL_HNSW_EF_SEARCH, shape.limit),
      config.RECALL_HNSW_MAX_SCAN_TUPLES,
      { preferIndex: true },
    );
    const search = nearestQuery(tx, shape, "index");
    return tx<{ "QUERY PLAN": string }[]>`EXPLAIN (ANALYZE, BUFFERS) ${search as never}`;
  });
  // The 1536 numbers of the query vector say nothing about the plan.
  return rows
    .map((r) => r["QUERY PLAN"])
    .join("\n")
    .replace(/'\[[-0-9.,e]+\]'/g, "'[query vector]'");
}
