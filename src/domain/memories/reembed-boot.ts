// At boot: record which generation serves each tenant that has vectors (before the configured one
// could be taken for it), say in the log when a re-embed is due, and start svc.generate_embedding
// right away.
import type { Ports } from "../ports/ports";
import { recordServingGenerations } from "../../data/queries/memories/embedding-generations";

export async function prepareEmbeddingGenerations(
  deps: Pick<Ports, "db" | "embeddings" | "queue" | "log">,
): Promise<void> {
  const recorded = await recordServingGenerations(deps.db.primary);
  const progress = await deps.embeddings.progress();
  const { configured } = progress;
  const older = progress.serving.filter(
    (s) => s.model !== configured.model || s.dims !== configured.dims,
  );
  if (recorded > 0)
    deps.log.info({
      msg: "recorded the embedding generation serving each tenant",
      tenants: recorded,
    });
  if (older.length === 0) return;
  deps.log.warn({
    msg: "embedding configuration changed: re-embedding without downtime; recall keeps the old generation per tenant until its new vectors are complete (progress: /v1/ready, /metrics)",
    configured: `${configured.model}@${configured.dims}`,
    serving: older.map((s) => ({
      generation: `${s.model}@${s.dims}`,
      tenants: s.tenants,
      provider_configured: deps.embeddings.embedderFor(s.model, s.dims) !== null,
    })),
  });
  await deps.queue
    .enqueue("svc.generate_embedding", {}, { jobId: "embed-reembed-boot" })
    .catch((error) =>
      deps.log.warn({
        msg: "could not enqueue svc.generate_embedding; the 5-minute beat starts the re-embed",
        err: (error as Error).message,
      }),
    );
}
