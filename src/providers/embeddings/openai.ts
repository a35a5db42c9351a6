// The OpenAI-compatible embedder, on the `openai` SDK: POST {base}/embeddings of OpenAI or of a
// local server (Ollama, llama.cpp server, text-embeddings-inference, vLLM), tolerant of how those
// servers differ (docs/embeddings.md): no API key, float or base64 answers, no `usage`, batch
// limits (a 413 halves the batch for good, a 400/422 splits it for this call), slow first responses
// while a model loads (background calls get a longer first timeout and 503 retried with backoff),
// `dimensions` unsupported (asked once, then never again), and a vector size other than
// EMBEDDING_DIMENSIONS, refused with a message naming it. How the SDK is bent to that: without a
// key it gets a placeholder and the Authorization header is removed (a null header);
// `encoding_format` is always explicit, so the SDK hands the answer back untouched and
// openai-answer.ts reads floats or base64 alike; its own retries (status, Retry-After, backoff)
// serve every call, and only the loading model's 503 is retried here past EMBEDDING_MAX_RETRIES.
// One narrow `fetch` wrapper: the SDK keeps an error body's reason only in OpenAI's `{"error": …}`
// shape, and local servers also answer `{"message": …}` (vLLM) or plain text, so a failed answer's
// body is passed on as that shape verbatim.
import OpenAI, { APIConnectionError, APIError } from "openai";
import {
  EmbeddingUnavailableError,
  type EmbeddingContext,
  type EmbeddingProvider,
  type EmbeddingResult,
} from "./port";
import { embeddingFailure, parseEmbeddingAnswer, type FailedAnswer } from "./openai-answer";

export type OpenAiEmbedderOptions = {
  /** Absent for local servers: no Authorization header is sent. */
  apiKey?: string;
  baseUrl?: string;
  model: string;
  dimensions: number;
  timeoutMs: number;
  /**
   * Per-request timeout of patient (background) calls until the first success: a local server may
   * load the model first.
   */
  firstCallTimeoutMs?: number;
  maxRetries: number;
  batchSize: number;
};

/**
 * OpenAI's default model's native size: only a different size is asked for (older models reject the
 * field).
 */
const NATIVE_DIMENSIONS = 1536;
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8000;

/**
 * Keeps a failed answer's body, whatever its shape, as the `{"error": {"message"}}` the SDK reads.
 */
async function fetchKeepingErrorBodies(
  url: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const response = await fetch(url, init);
  if (response.ok) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  headers.set("content-type", "application/json");
  const message = (await response.text().catch(() => "")).slice(0, 500);
  return new Response(JSON.stringify({ error: { message } }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): EmbeddingProvider {
  const baseURL = (options.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  const url = `${baseURL}/embeddings`;
  const client = new OpenAI({
    baseURL,
    // The SDK refuses to start without a key: a local server gets a placeholder that is never sent.
    apiKey: options.apiKey || "unused",
    defaultHeaders: options.apiKey ? {} : { Authorization: null },
    // Not from OPENAI_* environment variables: those belong to other uses of the SDK in this
    // process.
    organization: null,
    project: null,
    fetch: fetchKeepingErrorBodies,
  });
  // What this server turned out to accept; learned once per process.
  let sendDimensions = options.dimensions !== NATIVE_DIMENSIONS;
  let encoding: "base64" | "float" = "base64";
  let maxBatch = options.batchSize;
  let warmedUp = false;

  /** One call through the SDK (with its retries); resolves to vectors or a classified failure. */
  async function call(
    texts: string[],
    request: OpenAI.RequestOptions,
  ): Promise<EmbeddingResult | FailedAnswer> {
    let answer: unknown;
    try {
      answer = await client.embeddings.create(
        {
          model: options.model,
          input: texts,
          encoding_format: encoding,
          ...(sendDimensions ? { dimensions: options.dimensions } : {}),
        },
        request,
      );
    } catch (error) {
      if (!(error instanceof APIError))
        throw new EmbeddingUnavailableError(
          `embedding provider sent an unreadable answer: ${(error as Error).message}`,
        );
      // Connection errors, timeouts and aborts are APIErrors without a status: the server was not
      // reached.
      if (error instanceof APIConnectionError || !error.status)
        return { status: 0, message: error.message, retryAfterMs: null };
      const body = error.error as { message?: unknown } | undefined;
      const retryAfter = Number(error.headers?.get("retry-after") || Number.NaN);
      return {
        status: error.status,
        message: typeof body?.message === "string" ? body.message : error.message,
        retryAfterMs: retryAfter >= 0 ? retryAfter * 1000 : null,
      };
    }
    const result = parseEmbeddingAnswer(answer, texts, options.dimensions, options.model);
    warmedUp = true;
    return result;
  }

  /**
   * Sends one batch; a patient first call keeps retrying a loading model's 503 until its budget is
   * spent.
   */
  async function exchange(
    texts: string[],
    patient: boolean,
  ): Promise<EmbeddingResult | FailedAnswer> {
    if (!patient || warmedUp || options.firstCallTimeoutMs === undefined) {
      return call(texts, { timeout: options.timeoutMs, maxRetries: options.maxRetries });
    }
    const deadline = Date.now() + options.firstCallTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      const left = Math.max(100, deadline - Date.now());
      // The signal bounds the SDK's own retries by the same budget.
      const answer = await call(texts, {
        timeout: left,
        maxRetries: options.maxRetries,
        signal: AbortSignal.timeout(left),
      });
      if ("vectors" in answer || answer.status !== 503 || Date.now() >= deadline) return answer;
      const backoff =
        Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
      await Bun.sleep(Math.min(answer.retryAfterMs ?? backoff, Math.max(0, deadline - Date.now())));
    }
  }

  async function embedBatch(texts: string[], patient: boolean): Promise<EmbeddingResult> {
    const answer = await exchange(texts, patient);
    if ("vectors" in answer) return answer;
    const lower = answer.message.toLowerCase();
    const rejectsField = answer.status === 400 || answer.status === 422;
    if (rejectsField && sendDimensions && /dimension|matryoshka/.test(lower)) {
      sendDimensions = false;
      return embedBatch(texts, patient);
    }
    if (rejectsField && encoding === "base64" && /encoding|base64/.test(lower)) {
      encoding = "float";
      return embedBatch(texts, patient);
    }
    if ((answer.status === 413 || rejectsField) && texts.length > 1) {
      // 413 is a batch limit (TEI's is 32 by default): remember it. A 400/422 may be one bad input:
      // split only this call, so one over-long text does not shrink every later batch.
      const half = Math.ceil(texts.length / 2);
      if (answer.status === 413) maxBatch = Math.min(maxBatch, half);
      const a = await embedBatch(texts.slice(0, half), patient);
      const b = await embedBatch(texts.slice(half), patient);
      return { vectors: [...a.vectors, ...b.vectors], tokens: a.tokens + b.tokens };
    }
    throw embeddingFailure(answer, url, options.model);
  }

  return {
    name: "openai",
    model: options.model,
    dimensions: options.dimensions,
    async embed(texts: string[], ctx?: EmbeddingContext): Promise<EmbeddingResult> {
      const vectors: number[][] = [];
      let tokens = 0;
      for (let i = 0; i < texts.length; ) {
        const size = maxBatch;
        const chunk = await embedBatch(texts.slice(i, i + size), ctx?.patient === true);
        vectors.push(...chunk.vectors);
        tokens += chunk.tokens;
        i += size;
      }
      return { vectors, tokens };
    },
  };
}
