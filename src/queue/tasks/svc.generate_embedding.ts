// svc.generate_embedding: for one org or all, puts batch-stored vectors into the HNSW graph (the
// vector backlog, vector-backlog.ts), embeds current memories stored without a vector (provider was
// down) and runs the zero-downtime re-embed after a change of provider, model or dimension
// (reembed.ts); bounded batches per delivery, and a tenant with work left is continued by a
// follow-up job.
import { Type as T } from "@sinclair/typebox";
import { listOrgIds } from "../../data/queries/orgs";
import { withSystem } from "../../data/with-system";
import { advanceEmbeddings } from "../../domain/memories/reembed";
import { graphBacklog } from "../../domain/memories/vector-backlog";
import { defineTask } from "../define-task";

const BATCH = 256;
/** Bounds one delivery per tenant; the rest continues in a follow-up job right away. */
const MAX_BATCHES_PER_RUN = 40;
/**
 * Graph inserts are about 1.5 ms a row here: a chunk holds a PATCH or forget of its rows for ~0.3
 * s.
 */
export const GRAPH_CHUNK = 200;
export const MAX_GRAPH_CHUNKS_PER_RUN = 50;
/**
 * Two chunks at a time: 604 against 432 rows/s on one, at 20k memories on this 2-core machine
 * (bench/store.ts).
 */
export const GRAPH_PARALLEL = 2;

export const generateEmbeddingTask = defineTask({
  name: "svc.generate_embedding",
  payload: T.Object(
    { org_id: T.Optional(T.String({ minLength: 1, maxLength: 100 })) },
    { additionalProperties: false },
  ),
  attempts: 5,
  backoffMs: 10_000,
  schedule: { id: "generate-embedding", everyMs: () => 5 * 60_000 },
  run: async (payload, deps) => {
    const orgIds =
      payload.org_id === undefined ? await withSystem(deps.db, listOrgIds) : [payload.org_id];
    let embedded = 0;
    let switched = 0;
    let graphed = 0;
    for (const orgId of orgIds) {
      // First, and without the provider: a provider outage must not hold vectors out of the graph.
      const backlog = await graphBacklog(
        deps.db,
        orgId,
        GRAPH_CHUNK,
        MAX_GRAPH_CHUNKS_PER_RUN,
        GRAPH_PARALLEL,
      );
      graphed += backlog.graphed;
      if (backlog.graphed > 0)
        deps.log.info({
          msg: "vector backlog graphed",
          org_id: orgId,
          graphed: backlog.graphed,
          remaining: backlog.remaining,
        });
      const started = performance.now();
      const step = await advanceEmbeddings(deps, orgId, BATCH, MAX_BATCHES_PER_RUN);
      embedded += step.embedded;
      if (step.reembed?.switched) switched++;
      if (step.embedded > 0 || step.reembed) {
        // A re-embed can take hours: each step logs done/total, rate and ETA (also on /metrics and
        // /v1/ready).
        const rate = step.embedded / Math.max((performance.now() - started) / 1000, 0.001);
        const r = step.reembed;
        deps.log.info({
          msg: "embedding backfill",
          org_id: orgId,
          model: deps.embedder.model,
          embedded: step.embedded,
          rate_per_second: Math.round(rate),
          ...(r
            ? {
                reembed_from: `${r.from.model}@${r.from.dims}`,
                done: r.done,
                total: r.total,
                switched: r.switched,
                eta_seconds: rate > 0 ? Math.ceil((r.total - r.done) / rate) : null,
              }
            : {}),
        });
      }
      if (
        (step.remaining > 0 && step.embedded > 0) ||
        (backlog.remaining > 0 && backlog.graphed > 0)
      ) {
        await deps.queue.enqueue(
          "svc.generate_embedding",
          { org_id: orgId },
          { jobId: `embed-continue-${orgId}-${Date.now()}` },
        );
      }
    }
    return { embedded, switched, graphed, tenants: orgIds.length };
  },
});
