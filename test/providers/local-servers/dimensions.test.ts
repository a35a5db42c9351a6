// Dimensions on local servers: a vector size other than EMBEDDING_DIMENSIONS is refused with a
// message naming the variable and the size to set; a server that rejects `dimensions` (vLLM on a
// model without matryoshka) is asked again without it, and never again; one that supports it
// truncates.
import { afterAll, beforeEach, expect, test } from "bun:test";
import {
  createOpenAiEmbedder,
  type OpenAiEmbedderOptions,
} from "../../../src/providers/embeddings/openai";
import { EmbeddingDimensionMismatchError } from "../../../src/providers/embeddings/openai-answer";
import { EmbeddingUnavailableError } from "../../../src/providers/embeddings/port";
import { startFakeEmbeddingServer } from "../../harness/fake-embedding-server";

const server = startFakeEmbeddingServer({ dims: 384 });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.set({ dims: 384, dimensionsSupported: false });
});

const embedder = (over: Partial<OpenAiEmbedderOptions>) =>
  createOpenAiEmbedder({
    baseUrl: server.baseUrl,
    model: "BAAI/bge-small-en-v1.5",
    dimensions: 1536,
    timeoutMs: 2000,
    maxRetries: 0,
    batchSize: 64,
    ...over,
  });
const ctx = { orgId: "org_dims" };

test("the default 1536 against a 384-dimension model: refused, naming EMBEDDING_DIMENSIONS and 384", async () => {
  const error = await embedder({})
    .embed(["x"], ctx)
    .catch((e) => e);
  expect(error).toBeInstanceOf(EmbeddingDimensionMismatchError);
  expect(error).toBeInstanceOf(EmbeddingUnavailableError);
  expect(error.message).toContain("returned 384-dimension vectors");
  expect(error.message).toContain("EMBEDDING_DIMENSIONS=1536");
  expect(error.message).toContain("set EMBEDDING_DIMENSIONS=384");
  // No `dimensions` for the native 1536, and a mismatch is not retried.
  expect(server.requests.map((r) => r.dimensions)).toEqual([undefined]);
});

test("EMBEDDING_DIMENSIONS=384 on a server that rejects `dimensions`: asked again without it, once for the process", async () => {
  const e = embedder({ dimensions: 384 });
  expect((await e.embed(["one"], ctx)).vectors[0]!.length).toBe(384);
  await e.embed(["two"], ctx);
  expect(server.requests.map((r) => [r.dimensions, r.status])).toEqual([
    [384, 400],
    [undefined, 200],
    [undefined, 200],
  ]);
});

test("a server that supports `dimensions` truncates to the size asked", async () => {
  server.set({ dimensionsSupported: true });
  const { vectors } = await embedder({ dimensions: 256 }).embed(["matryoshka"], ctx);
  expect(vectors[0]!.length).toBe(256);
  expect(server.requests[0]!.dimensions).toBe(256);
});

test("asking a smaller size of a model that ignores it is still a clear mismatch", async () => {
  server.set({ dimensionsSupported: false });
  const error = await embedder({ dimensions: 256 })
    .embed(["x"], ctx)
    .catch((e) => e);
  expect(error).toBeInstanceOf(EmbeddingDimensionMismatchError);
  expect(error.message).toContain("set EMBEDDING_DIMENSIONS=384");
});
