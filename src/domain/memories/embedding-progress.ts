// The deployment's embedding generations for /v1/ready and /metrics: which generation serves how
// many tenants, and the progress (done/total current versions) of a re-embed. Counts only, no
// tenant ids.
import type { Database } from "../../data/pools";
import { allGenerationRows } from "../../data/queries/memories/embedding-generations";
import type { Generation } from "./generation";

export type EmbeddingProgress = {
  configured: Generation;
  serving: Array<Generation & { tenants: number }>;
  /** One entry per target generation being built; empty when no re-embed runs. */
  reembed: Array<{
    from: Generation;
    to: Generation;
    tenants: number;
    done: number;
    total: number;
  }>;
  /** Batch-stored vectors not yet in the HNSW graph (the vector backlog, docs/recall.md). */
  graph_backlog: number;
};

/**
 * Scrapes and readiness probes come often; the summary visits every tenant, so it is reused this
 * long.
 */
const SUMMARY_CACHE_MS = 1000;

export function createEmbeddingProgress(
  db: Database,
  configured: Generation,
): () => Promise<EmbeddingProgress> {
  let cached: { at: number; value: Promise<EmbeddingProgress> } | null = null;

  async function load(): Promise<EmbeddingProgress> {
    const { rows, tenants, graphBacklog } = await allGenerationRows(db.primary);
    const serving = new Map<string, Generation & { tenants: number }>();
    const reembed = new Map<string, EmbeddingProgress["reembed"][number]>();
    const key = (g: Generation) => `${g.model}\u0000${g.dims}`;
    // A tenant without a row is served by the configured generation.
    serving.set(key(configured), { ...configured, tenants: tenants - rows.length });
    for (const row of rows) {
      const from = { model: row.serving_model, dims: row.serving_dims };
      const s = serving.get(key(from)) ?? { ...from, tenants: 0 };
      s.tenants++;
      serving.set(key(from), s);
      if (row.target_model === null || row.target_dims === null) continue;
      const to = { model: row.target_model, dims: row.target_dims };
      const k = `${key(from)}\u0000${key(to)}`;
      const r = reembed.get(k) ?? { from, to, tenants: 0, done: 0, total: 0 };
      r.tenants++;
      r.done += row.target_done;
      r.total += row.target_total;
      reembed.set(k, r);
    }
    return {
      configured,
      serving: [...serving.values()].filter((s) => s.tenants > 0),
      reembed: [...reembed.values()],
      graph_backlog: graphBacklog,
    };
  }

  return () => {
    if (cached && Date.now() - cached.at < SUMMARY_CACHE_MS) return cached.value;
    const value = load();
    cached = { at: Date.now(), value };
    value.catch(() => {
      cached = null;
    });
    return value;
  };
}
