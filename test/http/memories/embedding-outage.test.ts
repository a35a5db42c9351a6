// A provider outage never fails a store: the row is stored without a vector, svc.generate_embedding
// is enqueued and the backfill completes it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { backfillEmbeddings } from "../../../src/domain/memories/backfill-embeddings";
import { createLocalEmbedder } from "../../../src/providers/embeddings/local";
import { testApp, show, type TestApp } from "../../harness/app";

let t: TestApp;
const enqueued: Array<{ name: string; payload: Record<string, unknown>; jobId?: string }> = [];
beforeAll(async () => {
  // Port 9 (discard) refuses connections: the OpenAI-compatible provider is "down".
  t = await testApp({
    EMBEDDING_PROVIDER: "openai",
    EMBEDDING_PROVIDER_API_KEY: "sk-test",
    EMBEDDING_BASE_URL: "http://127.0.0.1:9/v1",
    EMBEDDING_MAX_RETRIES: 0,
    EMBEDDING_TIMEOUT_MS: 500,
    EMBEDDING_DIMENSIONS: 64,
  });
  const queue = t.deps.queue;
  const enqueue = queue.enqueue.bind(queue);
  (queue as { enqueue: typeof enqueue }).enqueue = async (name, payload, options) => {
    enqueued.push({ name, payload, jobId: options?.jobId });
    return enqueue(name, payload, options);
  };
});
afterAll(() => t.close());

test("store and batch answer 201 with embedding_status pending and schedule the backfill", async () => {
  const a = await t.tenant();
  const one = await t.request("POST", "/v1/memories", {
    key: a.key,
    body: { agent_id: "x", content: "stored during an outage" },
  });
  expect(one.status, show(one)).toBe(201);
  expect(one.body.embedding_status).toBe("pending");
  const many = await t.request("POST", "/v1/memories/batch", {
    key: a.key,
    body: {
      memories: [
        { agent_id: "x", content: "b1" },
        { agent_id: "x", content: "b2" },
      ],
    },
  });
  expect(many.status, show(many)).toBe(201);
  expect(many.body.memories.map((m: any) => m.embedding_status)).toEqual(["pending", "pending"]);
  const patched = await t.request("PATCH", `/v1/memories/${one.body.memory_id}`, {
    key: a.key,
    body: { content: "edited during the outage" },
  });
  expect(patched.status, show(patched)).toBe(200);
  expect(patched.body.embedding_status).toBe("pending");
  expect(
    enqueued.filter((e) => e.name === "svc.generate_embedding" && e.payload.org_id === a.orgId)
      .length,
  ).toBeGreaterThanOrEqual(1);
  expect(enqueued[0]!.jobId).toStartWith(`embed-backfill-${a.orgId}-`);

  const recovered = createLocalEmbedder(64);
  expect(await backfillEmbeddings(t.deps.db, recovered, { limit: 100, orgId: a.orgId })).toBe(3);
  const got = await t.request("GET", `/v1/memories/${one.body.memory_id}`, { key: a.key });
  expect(got.body.embedding_status).toBe("ready");
});
