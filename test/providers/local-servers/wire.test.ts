// Local embedding servers on the wire: no API key (no Authorization header), model names with
// slashes and colons sent verbatim, float answers to a base64 request, base64 refused (falls back
// to float, once), answers without `usage` (tokens estimated) or without `index` (input order).
import { afterAll, beforeEach, expect, test } from "bun:test";
import {
  createOpenAiEmbedder,
  type OpenAiEmbedderOptions,
} from "../../../src/providers/embeddings/openai";
import { expectedVector, startFakeEmbeddingServer } from "../../harness/fake-embedding-server";

const server = startFakeEmbeddingServer({ dims: 24, dimensionsSupported: true });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.set({
    ignoreEncoding: false,
    rejectBase64: false,
    usage: true,
    omitIndex: false,
    apiKey: undefined,
    models: undefined,
  });
});

const embedder = (over: Partial<OpenAiEmbedderOptions> = {}) =>
  createOpenAiEmbedder({
    baseUrl: server.baseUrl,
    model: "nomic-embed-text:latest",
    dimensions: 24,
    timeoutMs: 2000,
    maxRetries: 0,
    batchSize: 64,
    ...over,
  });
const ctx = { orgId: "org_wire" };

test("without a key no Authorization header is sent, and model names with slashes or colons go through verbatim", async () => {
  for (const model of [
    "nomic-embed-text:latest",
    "BAAI/bge-small-en-v1.5",
    "hf.co/org/Model-GGUF:Q4_K_M",
  ]) {
    server.set({ models: [model] });
    await embedder({ model }).embed(["hello"], ctx);
  }
  expect(server.requests.map((r) => [r.model, r.auth, r.status])).toEqual([
    ["nomic-embed-text:latest", null, 200],
    ["BAAI/bge-small-en-v1.5", null, 200],
    ["hf.co/org/Model-GGUF:Q4_K_M", null, 200],
  ]);
});

test("a key, when configured, is sent as a bearer token; a wrong one is a clear error", async () => {
  server.set({ apiKey: "local-secret" });
  await embedder({ apiKey: "local-secret" }).embed(["x"], ctx);
  expect(server.requests[0]!.auth).toBe("Bearer local-secret");
  const error = await embedder({ apiKey: "wrong" })
    .embed(["x"], ctx)
    .catch((e) => e);
  expect(error.message).toContain("refused the credentials (401)");
});

test("a model the server does not serve names EMBEDDING_BASE_URL and the model", async () => {
  server.set({ models: ["other"] });
  const error = await embedder()
    .embed(["x"], ctx)
    .catch((e) => e);
  expect(error.message).toContain("404");
  expect(error.message).toContain('"nomic-embed-text:latest"');
  expect(error.message).toContain("EMBEDDING_BASE_URL ends in /v1");
});

test("float arrays answering a base64 request are read as floats", async () => {
  server.set({ ignoreEncoding: true });
  const { vectors } = await embedder().embed(["the cat sat", "on the mat"], ctx);
  expect(server.requests[0]!.encoding_format).toBe("base64");
  expect(vectors[0]).toEqual(await expectedVector("the cat sat", 24));
  expect(vectors[1]).toEqual(await expectedVector("on the mat", 24));
});

test("base64 answers are decoded as float32", async () => {
  const { vectors } = await embedder().embed(["decode me"], ctx);
  expect(vectors[0]).toEqual(await expectedVector("decode me", 24));
});

test("a server refusing base64 gets float from then on", async () => {
  server.set({ rejectBase64: true });
  const e = embedder();
  const { vectors } = await e.embed(["first"], ctx);
  await e.embed(["second"], ctx);
  expect(vectors[0]).toEqual(await expectedVector("first", 24));
  expect(server.requests.map((r) => [r.encoding_format, r.status])).toEqual([
    ["base64", 422],
    ["float", 200],
    ["float", 200],
  ]);
});

test("no usage: tokens are estimated (so budgets still count); no index: input order", async () => {
  server.set({ usage: false, omitIndex: true });
  const texts = ["a".repeat(40), "b".repeat(8)];
  const result = await embedder().embed(texts, ctx);
  expect(result.tokens).toBe(12);
  expect(result.vectors[1]).toEqual(await expectedVector(texts[1]!, 24));
});
