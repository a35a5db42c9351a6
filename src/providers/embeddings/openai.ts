// The OpenAI-compatible embedder: /v1/embeddings through the official SDK (base64 transport, its retries
// with exponential backoff and its timeout), split into EMBEDDING_BATCH_SIZE requests, answers validated.
import OpenAI from "openai";
import { AppError } from "../../domain/errors";
import { EmbeddingUnavailableError, type EmbeddingProvider, type EmbeddingResult } from "./port";

export type OpenAiEmbedderOptions = {
  apiKey: string;
  baseUrl?: string;
  model: string;
  dimensions: number;
  timeoutMs: number;
  maxRetries: number;
  batchSize: number;
};

/** The default model's native size: only a different size is asked for (older models reject the field). */
const NATIVE_DIMENSIONS = 1536;

export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): EmbeddingProvider {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
  });

  async function embedChunk(texts: string[]): Promise<EmbeddingResult> {
    let answer: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      answer = await client.embeddings.create({
        model: options.model,
        input: texts,
        ...(options.dimensions !== NATIVE_DIMENSIONS ? { dimensions: options.dimensions } : {}),
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new EmbeddingUnavailableError(`embedding request failed: ${(error as Error).message}`, error);
    }
    const data = Array.isArray(answer?.data) ? answer.data : [];
    if (data.length !== texts.length) {
      throw new EmbeddingUnavailableError(`embedding provider returned ${data.length} vectors for ${texts.length} inputs`);
    }
    const vectors = new Array<number[]>(texts.length);
    for (const item of data) {
      const index = item.index;
      if (!Number.isInteger(index) || index < 0 || index >= texts.length || vectors[index]) {
        throw new EmbeddingUnavailableError(`embedding provider returned a bad or repeated index ${index}`);
      }
      vectors[index] = checkedVector(item.embedding, options.dimensions);
    }
    return { vectors, tokens: answer.usage?.total_tokens ?? answer.usage?.prompt_tokens ?? 0 };
  }

  return {
    name: "openai",
    model: options.model,
    dimensions: options.dimensions,
    async embed(texts: string[]): Promise<EmbeddingResult> {
      const vectors: number[][] = [];
      let tokens = 0;
      for (let i = 0; i < texts.length; i += options.batchSize) {
        const chunk = await embedChunk(texts.slice(i, i + options.batchSize));
        vectors.push(...chunk.vectors);
        tokens += chunk.tokens;
      }
      return { vectors, tokens };
    },
  };
}

function checkedVector(embedding: unknown, dimensions: number): number[] {
  if (!Array.isArray(embedding) || embedding.length !== dimensions) {
    const got = Array.isArray(embedding) ? embedding.length : typeof embedding;
    throw new EmbeddingUnavailableError(`embedding provider returned a vector of ${got}, expected ${dimensions} dimensions`);
  }
  for (const x of embedding) {
    if (typeof x !== "number" || !Number.isFinite(x)) throw new EmbeddingUnavailableError("embedding provider returned a non-finite number");
  }
  return embedding as number[];
}
