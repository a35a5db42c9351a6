// svc.generate_embedding: for one org or all, embeds current memories stored without a vector (provider was
// down) and runs the zero-downtime re-embed after a change of provider, model or dimension (reembed.ts);
// bounded batches per delivery, and a tenant with work left is continued by a follow-up job.
import { Type as T } from "@sinclair/typebox";
import { listOrgIds } from "../../data/queries/orgs";
import { withSystem } from "../../data/with-system";
import { advanceEmbeddings } from "../../domain/memories/reembed";
import { defineTask } from "../define-task";

const BATCH = 256;
/** Bounds one delivery per tenant; the rest continues in a follow-up job right away. */
const MAX_BATCHES_PER_RUN = 40;

export const generateEmbeddingTask = defineTask({
  name: "svc.generate_embedding",
  payload: T.Object({ org_id: T.Optional(T.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
  attempts: 5,
  backoffMs: 10_000,
  run: async (payload, deps) => {
    const orgIds = payload.org_id === undefined ? await withSystem(deps.db, listOrgIds) : [payload.org_id];
    let embedded = 0;
    let switched = 0;
    for (const orgId of orgIds) {
      const started = performance.now();
      const step = await advanceEmbeddings(deps, orgId, BATCH, MAX_BATCHES_PER_RUN);
      embedded += step.embedded;
      if (step.reembed?.switched) switched++;
      if (step.embedded > 0 || step.reembed) {
        // A re-embed can take hours: each step logs done/total, rate and ETA (also on /metrics and /v1/ready).
        const rate = step.embedded / Math.max((performance.now() - started) / 1000, 0.001);
        const r = step.reembed;
        deps.log.info({
          msg: "embedding backfill", org_id: orgId, model: deps.embedder.model, embedded: step.embedded, rate_per_second: Math.round(rate),
          ...(r ? { reembed_from: `${r.from.model}@${r.from.dims}`, done: r.done, total: r.total, switched: r.switched, eta_seconds: rate > 0 ? Math.ceil((r.total - r.done) / rate) : null } : {}),
        });
      }
      if (step.remaining > 0 && step.embedded > 0) {
        await deps.queue.enqueue("svc.generate_embedding", { org_id: orgId }, { jobId: `embed-continue-${orgId}-${Date.now()}` });
      }
    }
    return { embedded, switched, tenants: orgIds.length };
  },
});
