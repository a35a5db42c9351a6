// svc.generate_embedding: embeds current memories stored without a vector (provider was down) and
// re-embeds those made by another model or dimension, for one org or all; bounded batches per delivery.
import { Type as T } from "@sinclair/typebox";
import { backfillEmbeddings, staleEmbeddingCount } from "../../domain/memories/backfill-embeddings";
import { defineTask } from "../define-task";

const BATCH = 256;
/** Bounds one delivery; a larger backlog continues on the next trigger (enqueue or the 5-minute beat). */
const MAX_BATCHES_PER_RUN = 40;

export const generateEmbeddingTask = defineTask({
  name: "svc.generate_embedding",
  payload: T.Object({ org_id: T.Optional(T.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
  attempts: 5,
  backoffMs: 10_000,
  run: async (payload, deps) => {
    // A re-embed after switching model can take hours: each batch logs done/total, rate and ETA.
    const total = await staleEmbeddingCount(deps.db, deps.embedder, payload.org_id);
    if (total === 0) return { embedded: 0, remaining: 0 };
    const started = performance.now();
    let embedded = 0;
    for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
      const n = await backfillEmbeddings(deps.db, deps.embedder, payload.org_id === undefined ? { limit: BATCH } : { limit: BATCH, orgId: payload.org_id });
      embedded += n;
      const rate = embedded / Math.max((performance.now() - started) / 1000, 0.001);
      deps.log.info({ msg: "embedding backfill", model: deps.embedder.model, done: embedded, total, rate_per_second: Math.round(rate), eta_seconds: rate > 0 ? Math.ceil((total - embedded) / rate) : null });
      if (n < BATCH) break;
    }
    return { embedded, remaining: Math.max(0, total - embedded) };
  },
});
