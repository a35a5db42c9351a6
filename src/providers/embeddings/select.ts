// Picks the embedder from configuration: openai when a key is set (or pinned), else the offline local one.
import type { Config } from "../../config/schema";
import { createLocalEmbedder } from "./local";
import { createOpenAiEmbedder } from "./openai";
import type { EmbeddingProvider } from "./port";

export function selectEmbedder(config: Config): EmbeddingProvider {
  const provider = config.EMBEDDING_PROVIDER ?? (config.EMBEDDING_PROVIDER_API_KEY ? "openai" : "local");
  if (provider === "local") return createLocalEmbedder(config.EMBEDDING_DIMENSIONS);
  if (!config.EMBEDDING_PROVIDER_API_KEY) throw new Error("EMBEDDING_PROVIDER=openai needs EMBEDDING_PROVIDER_API_KEY");
  return createOpenAiEmbedder({
    apiKey: config.EMBEDDING_PROVIDER_API_KEY,
    baseUrl: config.EMBEDDING_BASE_URL,
    model: config.EMBEDDING_MODEL,
    dimensions: config.EMBEDDING_DIMENSIONS,
    timeoutMs: config.EMBEDDING_TIMEOUT_MS,
    maxRetries: config.EMBEDDING_MAX_RETRIES,
    batchSize: config.EMBEDDING_BATCH_SIZE,
  });
}
