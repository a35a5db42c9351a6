// GET /metrics: Prometheus text exposition.
import { Elysia } from "elysia";
import type { Deps } from "../../../operations/deps";

export const metricsRoute = (deps: Deps) =>
  new Elysia().get(
    "/metrics",
    async () => {
      // Embedding generations and re-embed progress: a cached database summary; a scrape never
      // fails for it.
      const progress = await deps.embeddings.progress().catch(() => null);
      if (progress) deps.metrics.embeddings.set(progress);
      return new Response(await deps.metrics.registry.metrics(), {
        headers: { "content-type": deps.metrics.registry.contentType },
      });
    },
    {
      detail: {
        tags: ["Operations"],
        summary: "Prometheus metrics",
        security: [],
        responses: {
          200: {
            description: "Prometheus text exposition format",
            content: { "text/plain": { schema: { type: "string" } } },
          },
        },
      },
    },
  );
