// Picks the embedders from configuration: the configured one (openai when a key or base URL is set,
// or pinned; onnx when pinned; else the offline local one), and the previous one a re-embed still
// serves recall with.
import type { Config } from "../../config/schema";
import { createLocalEmbedder } from "./local";
import { createOnnxEmbedder } from "./onnx";
import { createOpenAiEmbedder } from "./openai";
import type { EmbeddingProvider } from "./port";

export function selectEmbedder(config: Config): EmbeddingProvider {
  const provider =
    config.EMBEDDING_PROVIDER ??
    (config.EMBEDDING_PROVIDER_API_KEY || config.EMBEDDING_BASE_URL ? "openai" : "local");
  if (provider === "local") return createLocalEmbedder(config.EMBEDDING_DIMENSIONS);
  // loadConfig has checked the directory and set EMBEDDING_DIMENSIONS from the model.
  if (provider === "onnx") return createOnnxEmbedder(config.EMBEDDING_MODEL_PATH!);
  if (!config.EMBEDDING_PROVIDER_API_KEY && !config.EMBEDDING_BASE_URL) {
    throw new Error(
      "EMBEDDING_PROVIDER=openai needs EMBEDDING_PROVIDER_API_KEY (OpenAI) or EMBEDDING_BASE_URL (a local server)",
    );
  }
  return createOpenAiEmbedder({
    apiKey: config.EMBEDDING_PROVIDER_API_KEY,
    baseUrl: config.EMBEDDING_BASE_URL,
    model: config.EMBEDDING_MODEL,
    dimensions: config.EMBEDDING_DIMENSIONS,
    timeoutMs: config.EMBEDDING_TIMEOUT_MS,
    firstCallTimeoutMs: config.EMBEDDING_FIRST_CALL_TIMEOUT_MS,
    maxRetries: config.EMBEDDING_MAX_RETRIES,
    batchSize: config.EMBEDDING_BATCH_SIZE,
  });
}

/**
 * The OpenAI-compatible embedder of EMBEDDING_PREVIOUS_*, or null when no previous server model is
 * named.
 */
export function selectPreviousEmbedder(config: Config): EmbeddingProvider | null {
  if (!config.EMBEDDING_PREVIOUS_MODEL || !config.EMBEDDING_PREVIOUS_DIMENSIONS) return null;
  const baseUrl = config.EMBEDDING_PREVIOUS_BASE_URL ?? config.EMBEDDING_BASE_URL;
  const apiKey = config.EMBEDDING_PREVIOUS_API_KEY ?? config.EMBEDDING_PROVIDER_API_KEY;
  if (!baseUrl && !apiKey)
    throw new Error(
      "EMBEDDING_PREVIOUS_MODEL needs EMBEDDING_PREVIOUS_BASE_URL or EMBEDDING_PREVIOUS_API_KEY (or the current ones)",
    );
  return createOpenAiEmbedder({
    apiKey,
    baseUrl,
    model: config.EMBEDDING_PREVIOUS_MODEL,
    dimensions: config.EMBEDDING_PREVIOUS_DIMENSIONS,
    timeoutMs: config.EMBEDDING_TIMEOUT_MS,
    firstCallTimeoutMs: config.EMBEDDING_FIRST_CALL_TIMEOUT_MS,
    maxRetries: config.EMBEDDING_MAX_RETRIES,
    batchSize: config.EMBEDDING_BATCH_SIZE,
  });
}

const LOCAL_MODEL = /^svc-local-hash-v1-(\d+)$/;

/**
 * The embedder that makes vectors of generation (model, dims): the configured one, the previous
 * one, or the local embedder, which needs no configuration since its model name says its dimension.
 * Null when none of them is that generation.
 */
export function embedderResolver(
  configured: EmbeddingProvider,
  previous: EmbeddingProvider | null,
  wrap: (e: EmbeddingProvider) => EmbeddingProvider,
) {
  const locals = new Map<number, EmbeddingProvider>();
  return (model: string, dims: number): EmbeddingProvider | null => {
    if (configured.model === model && configured.dimensions === dims) return configured;
    if (previous && previous.model === model && previous.dimensions === dims) return previous;
    const local = LOCAL_MODEL.exec(model);
    if (!local || Number(local[1]) !== dims) return null;
    let embedder = locals.get(dims);
    if (!embedder) locals.set(dims, (embedder = wrap(createLocalEmbedder(dims))));
    return embedder;
  };
}
