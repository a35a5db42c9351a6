// EXPLAIN (ANALYZE, BUFFERS) of the production VECTOR query, run as recall runs it (tenant transaction, settings).
import { limitRecallTransaction } from "../../src/data/queries/recall-common";
import { setHnswSearch, vectorSearch } from "../../src/data/queries/recall-vector";
import { withTenant } from "../../src/data/with-tenant";
import { createLocalEmbedder } from "../../src/providers/embeddings/local";
import type { BenchApp } from "./bench-app";
import { AGENT } from "./load-corpus";

export async function explainVector(app: BenchApp, query: string): Promise<string> {
  const { config, db } = app.deps;
  const { vectors } = await createLocalEmbedder(1536).embed([query], { orgId: app.orgId });
  const rows = await withTenant(db, app.orgId, async (tx) => {
    await limitRecallTransaction(tx, 60_000);
    await setHnswSearch(tx, config.RECALL_HNSW_EF_SEARCH, config.RECALL_HNSW_MAX_SCAN_TUPLES);
    const search = vectorSearch(tx, { filter: { orgId: app.orgId, agentId: AGENT }, vector: vectors[0]!, dimensions: 1536, limit: 10, efSearch: config.RECALL_HNSW_EF_SEARCH, maxScanTuples: config.RECALL_HNSW_MAX_SCAN_TUPLES });
    return tx<{ "QUERY PLAN": string }[]>`EXPLAIN (ANALYZE, BUFFERS) ${search as never}`;
  });
  // The 1536 numbers of the query vector say nothing about the plan.
  return rows.map((r) => r["QUERY PLAN"]).join("\n").replace(/'\[[-0-9.,e]+\]'/g, "'[query vector]'");
}
