// The OpenAI-compatible embedder against a fake /v1/embeddings server started here: base64
// transport, batching, retries, timeouts, answer validation and token counting.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { createOpenAiEmbedder } from "../../src/providers/embeddings/openai";
import { EmbeddingUnavailableError } from "../../src/providers/embeddings/port";

type Mode = "ok" | "fail-twice" | "always-500" | "wrong-dims" | "nan" | "slow" | "shuffled";
let mode: Mode = "ok";
let requests: Array<{
  input: string[];
  encoding_format?: string;
  dimensions?: number;
  model: string;
  auth: string | null;
}> = [];
let server: ReturnType<typeof Bun.serve>;

/** Deterministic vector per text so the test can check each result landed at its input's index. */
const vectorFor = (text: string, dims: number) =>
  Array.from({ length: dims }, (_, i) => ((text.length * 31 + i) % 17) / 17);

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    async fetch(req) {
      const body = (await req.json()) as {
        input: string[];
        model: string;
        encoding_format?: string;
        dimensions?: number;
      };
      requests.push({ ...body, auth: req.headers.get("authorization") });
      if (mode === "always-500" || (mode === "fail-twice" && requests.length <= 2))
        return Response.json({ error: { message: "overloaded" } }, { status: 500 });
      if (mode === "slow") await Bun.sleep(1500);
      const dims = mode === "wrong-dims" ? 3 : (body.dimensions ?? 1536);
      const data = body.input.map((text, index) => {
        const v = vectorFor(text, dims);
        if (mode === "nan") v[0] = Number.NaN;
        const embedding =
          body.encoding_format === "base64"
            ? Buffer.from(new Float32Array(v).buffer).toString("base64")
            : v;
        return { object: "embedding", index, embedding };
      });
      if (mode === "shuffled") data.reverse();
      return Response.json({
        object: "list",
        model: body.model,
        data,
        usage: { prompt_tokens: body.input.length * 2, total_tokens: body.input.length * 2 },
      });
    },
  });
});
afterAll(() => server.stop(true));
beforeEach(() => {
  mode = "ok";
  requests = [];
});

const client = (over: Partial<Parameters<typeof createOpenAiEmbedder>[0]> = {}) =>
  createOpenAiEmbedder({
    apiKey: "sk-test",
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    model: "text-embedding-3-small",
    dimensions: 8,
    timeoutMs: 5000,
    maxRetries: 2,
    batchSize: 3,
    ...over,
  });
const ctx = { orgId: "org_test" };

test("asks for base64 by default, decodes float32, keeps input order across batches and sums usage tokens", async () => {
  const texts = ["a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g"];
  mode = "shuffled";
  const result = await client().embed(texts, ctx);
  expect(requests.map((r) => r.input.length)).toEqual([3, 3, 1]);
  expect(
    requests.every(
      (r) =>
        r.encoding_format === "base64" &&
        r.auth === "Bearer sk-test" &&
        r.model === "text-embedding-3-small",
    ),
  ).toBe(true);
  expect(requests[0]!.dimensions).toBe(8);
  result.vectors.forEach((v, i) =>
    v.forEach((x, k) => expect(x).toBeCloseTo(vectorFor(texts[i]!, 8)[k]!, 6)),
  );
  expect(result.tokens).toBe(14);
});

test("does not send `dimensions` for the native 1536", async () => {
  await client({ dimensions: 1536 }).embed(["x"], ctx);
  expect(requests[0]!.dimensions).toBeUndefined();
});

test("retries server errors with backoff, then succeeds", async () => {
  mode = "fail-twice";
  const result = await client().embed(["retry me"], ctx);
  expect(requests.length).toBe(3);
  expect(result.vectors.length).toBe(1);
});

test.each([
  ["always-500", {}],
  ["wrong-dims", {}],
  ["nan", {}],
  ["slow", { timeoutMs: 200, maxRetries: 0 }],
] as const)("%s becomes EmbeddingUnavailableError", async (m, over) => {
  mode = m;
  const error = await client(over)
    .embed(["x"], ctx)
    .catch((e) => e);
  expect(error).toBeInstanceOf(EmbeddingUnavailableError);
});

test("an unreachable endpoint becomes EmbeddingUnavailableError", async () => {
  const error = await client({ baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 })
    .embed(["x"], ctx)
    .catch((e) => e);
  expect(error).toBeInstanceOf(EmbeddingUnavailableError);
});
