// Slow first responses: while a local server loads its model it answers 503 or takes long. Until
// the first success, a patient (background) call waits EMBEDDING_FIRST_CALL_TIMEOUT_MS and keeps
// retrying 503 with backoff within it; request paths, and every call after that, get
// EMBEDDING_TIMEOUT_MS and EMBEDDING_MAX_RETRIES.
import { afterAll, expect, test } from "bun:test";
import { createOpenAiEmbedder } from "../../../src/providers/embeddings/openai";
import { EmbeddingUnavailableError } from "../../../src/providers/embeddings/port";
import { startFakeEmbeddingServer } from "../../harness/fake-embedding-server";

const servers: Array<ReturnType<typeof startFakeEmbeddingServer>> = [];
afterAll(() => servers.forEach((s) => s.stop()));
const start = (b: Parameters<typeof startFakeEmbeddingServer>[0]) => {
  const s = startFakeEmbeddingServer(b);
  servers.push(s);
  return s;
};
const ctx = { orgId: "org_slow" };
const patient = { orgId: "org_slow", patient: true };

test("503 while loading: a request-path call fails fast; a patient first call retries past maxRetries until the model is up", async () => {
  const server = start({ dims: 8, loadingMs: 1200 });
  const e = createOpenAiEmbedder({
    baseUrl: server.baseUrl,
    model: "nomic-embed-text",
    dimensions: 8,
    timeoutMs: 300,
    firstCallTimeoutMs: 10_000,
    maxRetries: 0,
    batchSize: 8,
  });
  expect((await e.embed(["store now"], ctx).catch((err) => err)).message).toContain("503");
  expect(server.requests.length).toBe(1);
  const { vectors } = await e.embed(["wake up"], patient);
  expect(vectors[0]!.length).toBe(8);
  expect(server.requests.filter((r) => r.status === 503).length).toBeGreaterThanOrEqual(2);
  expect(server.requests.at(-1)!.status).toBe(200);
});

test("a slow first answer is awaited by a patient call with the first-call timeout; later answers get the normal one", async () => {
  const server = start({ dims: 8, delayMs: 700 });
  const e = createOpenAiEmbedder({
    baseUrl: server.baseUrl,
    model: "nomic-embed-text",
    dimensions: 8,
    timeoutMs: 300,
    firstCallTimeoutMs: 5000,
    maxRetries: 0,
    batchSize: 8,
  });
  expect((await e.embed(["first"], patient)).vectors.length).toBe(1);
  const error = await e.embed(["second"], patient).catch((err) => err);
  expect(error).toBeInstanceOf(EmbeddingUnavailableError);
  expect(error.message).toContain("unreachable");
});

test("after the first success, a 503 is retried EMBEDDING_MAX_RETRIES times, then reported", async () => {
  const server = start({ dims: 8 });
  const e = createOpenAiEmbedder({
    baseUrl: server.baseUrl,
    model: "nomic-embed-text",
    dimensions: 8,
    timeoutMs: 1000,
    firstCallTimeoutMs: 5000,
    maxRetries: 2,
    batchSize: 8,
  });
  await e.embed(["warm"], patient);
  server.set({ loadingMs: 60_000 });
  server.requests.length = 0;
  const error = await e.embed(["again"], patient).catch((err) => err);
  expect(error.message).toContain("503");
  expect(server.requests.length).toBe(3);
});
