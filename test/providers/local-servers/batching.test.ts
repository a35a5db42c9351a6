// Batch limits: a 413 (TEI: maximum batch size 32 by default) halves the batch until it passes and
// the smaller size sticks; a 400 from one over-long input splits only that call, and the call fails
// with the server's reason while later batches keep their full size. Order is kept throughout.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { createOpenAiEmbedder } from "../../../src/providers/embeddings/openai";
import { EmbeddingUnavailableError } from "../../../src/providers/embeddings/port";
import { expectedVector, startFakeEmbeddingServer } from "../../harness/fake-embedding-server";

const server = startFakeEmbeddingServer({ dims: 16 });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.set({ maxBatch: undefined, maxInputChars: undefined });
});

const embedder = () =>
  createOpenAiEmbedder({
    baseUrl: server.baseUrl,
    model: "BAAI/bge-small-en-v1.5",
    dimensions: 16,
    timeoutMs: 2000,
    maxRetries: 0,
    batchSize: 256,
  });
const texts = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag} memory number ${i}`);
const ctx = { orgId: "org_batch" };

test("413 above 32: halved until accepted, every vector in its input's place, and later calls start at the learned size", async () => {
  server.set({ maxBatch: 32 });
  const e = embedder();
  const first = texts(100, "first");
  const { vectors } = await e.embed(first, ctx);
  expect(vectors.length).toBe(100);
  for (const i of [0, 31, 32, 57, 99])
    expect(vectors[i]).toEqual(await expectedVector(first[i]!, 16));
  expect(server.requests.filter((r) => r.status === 413).length).toBeGreaterThan(0);
  expect(server.requests.filter((r) => r.status === 200).every((r) => r.input.length <= 32)).toBe(
    true,
  );

  server.requests.length = 0;
  await e.embed(texts(100, "second"), ctx);
  expect(server.requests.every((r) => r.status === 200 && r.input.length <= 32)).toBe(true);
  expect(server.requests.length).toBeLessThanOrEqual(5);
});

test("a 400 for one over-long input splits only that call; the failure says why and the next call is not shrunk", async () => {
  server.set({ maxInputChars: 200 });
  const e = embedder();
  const batch = [...texts(10, "fine"), "x".repeat(500)];
  const error = await e.embed(batch, ctx).catch((err) => err);
  expect(error).toBeInstanceOf(EmbeddingUnavailableError);
  expect(error.message).toContain("400");
  expect(error.message).toContain("input is too large");
  server.requests.length = 0;
  await e.embed(texts(60, "after"), ctx);
  expect(server.requests.map((r) => r.input.length)).toEqual([60]);
});
