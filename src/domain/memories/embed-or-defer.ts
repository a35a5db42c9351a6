// Embedding at write time without ever failing the write: a provider outage stores the row without
// a vector and schedules svc.generate_embedding; an AppError (e.g. budget-exceeded) still reaches
// the client. Writes embed with the tenant's serving generation, so during a re-embed new memories
// are found by recall at once; the re-embed gives them the new generation's vector before it
// switches.
import type { Ports } from "../ports/ports";
import type { TaskQueue } from "../ports/task-queue";
import { AppError } from "../../lib/errors";

export type EmbedDeps = Pick<Ports, "embeddings" | "log"> & {
  readonly queue?: Pick<TaskQueue, "enqueue">;
};

export type EmbedOutcome =
  | { ok: true; vectors: number[][]; model: string; dims: number }
  | { ok: false };

/** Backfill runs a little later so the rows that triggered it have committed. */
const BACKFILL_DELAY_MS = 2000;

export async function embedOrDefer(
  deps: EmbedDeps,
  orgId: string,
  texts: string[],
): Promise<EmbedOutcome> {
  const { embedder } = await deps.embeddings.serving(orgId);
  if (!embedder) {
    // The serving generation's provider is not configured (docs/embeddings.md): the re-embed embeds
    // these.
    await scheduleBackfill(deps, orgId);
    return { ok: false };
  }
  try {
    const result = await embedder.embed(texts, { orgId });
    if (
      result.vectors.length !== texts.length ||
      result.vectors.some((v) => v.length !== embedder.dimensions)
    ) {
      throw new Error(
        `embedder returned ${result.vectors.length} vectors for ${texts.length} texts or a wrong dimension`,
      );
    }
    return { ok: true, vectors: result.vectors, model: embedder.model, dims: embedder.dimensions };
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.log.warn({
      msg: "embedding provider unavailable; storing without vectors",
      provider: embedder.name,
      err: (error as Error).message,
      count: texts.length,
    });
    await scheduleBackfill(deps, orgId);
    return { ok: false };
  }
}

/**
 * The backfill job's id for a request made at `nowMs`: one per tenant and BACKFILL_DELAY_MS slot. A
 * job runs at least one delay after it was requested, so in a later slot: a request made while it
 * runs gets a new id instead of being dropped as a duplicate (issue 23, item 12).
 */
export function backfillJobId(orgId: string, nowMs: number): string {
  return `embed-backfill-${orgId}-${Math.floor(nowMs / BACKFILL_DELAY_MS)}`;
}

/**
 * One pending backfill per tenant is enough: the task embeds every row still missing a vector and
 * puts every waiting vector into the HNSW graph (a batch store schedules it for that, store.ts).
 */
export async function scheduleBackfill(deps: EmbedDeps, orgId: string): Promise<void> {
  if (!deps.queue) return;
  try {
    const jobId = backfillJobId(orgId, Date.now());
    const options = { jobId, delayMs: BACKFILL_DELAY_MS };
    await deps.queue.enqueue("svc.generate_embedding", { org_id: orgId }, options);
  } catch (error) {
    deps.log.warn({
      msg: "could not enqueue svc.generate_embedding; rows stay unembedded until the next backfill",
      org_id: orgId,
      err: (error as Error).message,
    });
  }
}
