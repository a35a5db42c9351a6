// Reading an OpenAI-compatible /v1/embeddings answer (float arrays or base64 float32, with or
// without `index` and `usage`), and the messages for answers that cannot be used.
import { EmbeddingUnavailableError, type EmbeddingResult } from "./port";

/** A request that got no usable answer: status 0 when the server was not reached (or timed out). */
export type FailedAnswer = { status: number; message: string; retryAfterMs: number | null };

/**
 * The server's vectors have another size than EMBEDDING_DIMENSIONS: configuration, not an outage.
 */
export class EmbeddingDimensionMismatchError extends EmbeddingUnavailableError {
  constructor(
    readonly model: string,
    readonly expected: number,
    readonly got: number,
  ) {
    super(
      `the embedding server returned ${got}-dimension vectors for model "${model}", but EMBEDDING_DIMENSIONS=${expected}: ` +
        `set EMBEDDING_DIMENSIONS=${got} (existing memories are re-embedded without downtime; see docs/embeddings.md)`,
    );
  }
}

export function embeddingFailure(
  answer: FailedAnswer,
  url: string,
  model: string,
): EmbeddingUnavailableError {
  const detail = answer.message.replace(/\s+/g, " ").trim().slice(0, 300);
  if (answer.status === 0)
    return new EmbeddingUnavailableError(`embedding server unreachable at ${url}: ${detail}`);
  if (answer.status === 404) {
    return new EmbeddingUnavailableError(
      `embedding server answered 404 at ${url} for model "${model}": check that EMBEDDING_BASE_URL ends in /v1 and that the model is pulled or served (${detail})`,
    );
  }
  if (answer.status === 401 || answer.status === 403) {
    return new EmbeddingUnavailableError(
      `embedding server refused the credentials (${answer.status}): set EMBEDDING_PROVIDER_API_KEY, or leave it unset for a server without keys (${detail})`,
    );
  }
  return new EmbeddingUnavailableError(`embedding request failed with ${answer.status}: ${detail}`);
}

function decode(embedding: unknown): number[] | null {
  if (Array.isArray(embedding)) return embedding as number[];
  if (typeof embedding !== "string") return null;
  const bytes = Buffer.from(embedding, "base64");
  if (bytes.length % 4 !== 0) return null;
  return Array.from(
    new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)),
  );
}

export function parseEmbeddingAnswer(
  answer: unknown,
  texts: string[],
  dimensions: number,
  model: string,
): EmbeddingResult {
  // Read as JSON even when a server labels it otherwise (the SDK then hands back the text).
  if (typeof answer === "string") answer = safeJson(answer);
  const body = answer as {
    data?: Array<{ index?: unknown; embedding?: unknown }>;
    usage?: { total_tokens?: number; prompt_tokens?: number };
  } | null;
  const data = Array.isArray(body?.data) ? body.data : [];
  if (data.length !== texts.length) {
    throw new EmbeddingUnavailableError(
      `embedding provider returned ${data.length} vectors for ${texts.length} inputs`,
    );
  }
  const vectors = new Array<number[]>(texts.length);
  data.forEach((item, position) => {
    // Some servers omit `index`; their order is the input order.
    const index = item.index === undefined ? position : item.index;
    if (
      typeof index !== "number" ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= texts.length ||
      vectors[index]
    ) {
      throw new EmbeddingUnavailableError(
        `embedding provider returned a bad or repeated index ${String(index)}`,
      );
    }
    const vector = decode(item.embedding);
    if (!vector)
      throw new EmbeddingUnavailableError(
        `embedding provider returned an embedding that is neither a number array nor base64 float32`,
      );
    if (vector.length !== dimensions)
      throw new EmbeddingDimensionMismatchError(model, dimensions, vector.length);
    for (const x of vector) {
      if (typeof x !== "number" || !Number.isFinite(x))
        throw new EmbeddingUnavailableError("embedding provider returned a non-finite number");
    }
    vectors[index] = vector;
  });
  // Local servers often send no usage: estimate (about four characters a token) so budgets still
  // count.
  const tokens =
    body?.usage?.total_tokens ??
    body?.usage?.prompt_tokens ??
    texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
  return { vectors, tokens };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
