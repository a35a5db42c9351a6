// The query embedding for the plan stage, with the tenant's serving generation.
import type { InProcessSpend } from "../../budgets/charge";
import { EmbeddingUnavailableError } from "../../../providers/embeddings/port";
import type { Actor } from "../../actor";
import type { ServingGeneration } from "../../memories/embedding-generations";
import type { RecallDeps } from "./types";

export type QueryEmbedding = {
  vector: number[] | null;
  charge: InProcessSpend | null;
  unavailable: string;
};

/**
 * Embeds the query with the tenant's serving generation (during a re-embed: the old model, whose
 * vectors recall still reads): the local embedder in-process, charged later in the recall
 * transaction; a remote provider metered as usual, its vectors cached per tenant and model. A
 * provider outage returns no vector (the caller degrades and says so); AppErrors propagate.
 */
export async function embedQuery(
  deps: RecallDeps,
  actor: Actor,
  query: string,
  serving: ServingGeneration,
): Promise<QueryEmbedding> {
  const embedder = serving.embedder;
  if (!embedder) {
    return {
      vector: null,
      charge: null,
      unavailable: `the embedding model serving this tenant (${serving.model}) is being replaced and is not configured (EMBEDDING_PREVIOUS_*)`,
    };
  }
  const ctx = { orgId: actor.orgId };
  const unavailable = "the embedding provider is unavailable";
  if (embedder.embedUncharged) {
    const { vectors, tokens } = await embedder.embedUncharged([query], ctx);
    return {
      vector: vectors[0] ?? null,
      charge: vectors[0] ? { tokens, embeddingCalls: 1 } : null,
      unavailable,
    };
  }
  const cached = deps.queryVectors.get(actor.orgId, embedder.model, query);
  if (cached) return { vector: cached, charge: null, unavailable };
  try {
    const { vectors } = await embedder.embed([query], ctx);
    if (vectors[0]) deps.queryVectors.put(actor.orgId, embedder.model, query, vectors[0]);
    return { vector: vectors[0] ?? null, charge: null, unavailable };
  } catch (error) {
    if (!(error instanceof EmbeddingUnavailableError)) throw error;
    deps.log.warn({
      msg: "query embedding unavailable; recall goes on without VECTOR",
      request_id: actor.requestId,
      err: error.message,
    });
    return { vector: null, charge: null, unavailable };
  }
}
