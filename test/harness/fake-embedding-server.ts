// A real HTTP server speaking OpenAI-compatible /v1/embeddings the way local servers do (Ollama,
// llama.cpp, text-embeddings-inference, vLLM): each quirk is a switch, every request is recorded,
// and the vectors come from the local embedder at the server's native size, so they are meaningful
// and deterministic.
import { createLocalEmbedder } from "../../src/providers/embeddings/local";

export type FakeServerBehaviour = {
  /** The model's native vector size. */
  dims: number;
  /** Model names the server serves; others get 404 (as Ollama does for a model not pulled). */
  models?: string[];
  /** Answer float arrays even when base64 was asked for (servers that ignore encoding_format). */
  ignoreEncoding?: boolean;
  /** Refuse encoding_format "base64" with a 422 naming the field. */
  rejectBase64?: boolean;
  /**
   * `dimensions` is honoured by truncation (matryoshka) when true; rejected with 400 when false
   * (vLLM on most models).
   */
  dimensionsSupported?: boolean;
  /** Batches larger than this get 413 (TEI: "batch size 64 > maximum allowed batch size 32"). */
  maxBatch?: number;
  /** Inputs longer than this get 400 (a context limit). */
  maxInputChars?: number;
  /** Send `usage` (OpenAI does; llama.cpp and others often do not). */
  usage?: boolean;
  /** Leave `index` out of each item. */
  omitIndex?: boolean;
  /** Answer 503 "model is loading" until this many ms after start. */
  loadingMs?: number;
  /** Delay before every answer. */
  delayMs?: number;
  /** Bearer key required (a server started with --api-key). */
  apiKey?: string;
};

export type RecordedRequest = {
  model: string;
  input: string[];
  encoding_format?: string;
  dimensions?: number;
  auth: string | null;
  status: number;
};

export function startFakeEmbeddingServer(initial: FakeServerBehaviour) {
  let behaviour = { usage: true, ...initial };
  const requests: RecordedRequest[] = [];
  const startedAt = Date.now();
  let paused: Promise<void> | null = null;
  let held = 0;
  let resume: () => void = () => {};
  const embedders = new Map<number, ReturnType<typeof createLocalEmbedder>>();
  const embedderOf = (dims: number) =>
    embedders.get(dims) ?? embedders.set(dims, createLocalEmbedder(dims)).get(dims)!;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (request.method !== "POST" || path !== "/v1/embeddings")
        return Response.json({ error: "not found" }, { status: 404 });
      const body = (await request.json()) as {
        model: string;
        input: string | string[];
        encoding_format?: string;
        dimensions?: number;
      };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      const answer = (status: number, json: unknown) => {
        requests.push({
          model: body.model,
          input,
          encoding_format: body.encoding_format,
          dimensions: body.dimensions,
          auth: request.headers.get("authorization"),
          status,
        });
        return Response.json(json, { status });
      };
      if (paused) {
        held++;
        await paused;
        held--;
      }
      if (behaviour.delayMs) await Bun.sleep(behaviour.delayMs);
      const b = behaviour;
      if (b.apiKey && request.headers.get("authorization") !== `Bearer ${b.apiKey}`)
        return answer(401, { error: "invalid api key" });
      if (b.loadingMs && Date.now() - startedAt < b.loadingMs)
        return answer(503, { error: "Loading model", error_type: "unhealthy" });
      if (b.models && !b.models.includes(body.model))
        return answer(404, { error: `model "${body.model}" not found, try pulling it first` });
      if (b.maxBatch && input.length > b.maxBatch)
        return answer(413, {
          error: `batch size ${input.length} > maximum allowed batch size ${b.maxBatch}`,
          error_type: "validation",
        });
      if (b.rejectBase64 && body.encoding_format === "base64")
        return answer(422, {
          error: "encoding_format: unknown variant `base64`, expected `float`",
        });
      if (body.dimensions !== undefined && !b.dimensionsSupported)
        return answer(400, {
          object: "error",
          message:
            "Model does not support matryoshka representation, changing output dimensions will lead to poor results.",
          code: 400,
        });
      if (b.maxInputChars && input.some((t) => t.length > b.maxInputChars!))
        return answer(400, { error: "input is too large to process: increase the context size" });
      const size = body.dimensions ?? b.dims;
      const { vectors } = await embedderOf(b.dims).embed(input, { orgId: "fake" });
      const base64 = body.encoding_format === "base64" && !b.ignoreEncoding;
      const data = vectors.map((v, index) => {
        const cut = v.slice(0, size);
        return {
          object: "embedding",
          ...(b.omitIndex ? {} : { index }),
          embedding: base64 ? Buffer.from(new Float32Array(cut).buffer).toString("base64") : cut,
        };
      });
      const tokens = input.reduce((n, t) => n + t.split(/\s+/).length, 0);
      return answer(200, {
        object: "list",
        model: body.model,
        data,
        ...(b.usage ? { usage: { prompt_tokens: tokens, total_tokens: tokens } } : {}),
      });
    },
  });

  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    requests,
    set(next: Partial<FakeServerBehaviour>) {
      behaviour = { ...behaviour, ...next };
    },
    /** Holds every request until resume(): a slow or stuck server. */
    pause() {
      paused ??= new Promise<void>((r) => {
        resume = () => {
          paused = null;
          r();
        };
      });
    },
    resume() {
      resume();
    },
    /** How many requests pause() is holding now. */
    waiting: () => held,
    stop: () => server.stop(true),
  };
}

/** The local embedder's vector at a size, for checking what a client decoded. */
export const expectedVector = (text: string, dims: number) =>
  createLocalEmbedder(dims)
    .embed([text], { orgId: "fake" })
    .then((r) => r.vectors[0]!);
