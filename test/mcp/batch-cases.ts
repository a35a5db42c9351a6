// JSON-RPC batches on POST /mcp, for both database modes: a batch is counted per call against the
// rate limit, its calls run one at a time, and a key revoked while a batch runs stops the rest of
// it.
import { expect } from "bun:test";
import type { TestApp, Tenant } from "../harness/app";
import type { startFakeEmbeddingServer } from "../harness/fake-embedding-server";

const HEADERS = { accept: "application/json, text/event-stream" };

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

type CallAnswer = { id: number; result: { isError?: boolean; content: Array<{ text: string }> } };

async function postBatch(app: TestApp, key: string, batch: unknown[]): Promise<CallAnswer[]> {
  const response = await app.request("POST", "/mcp", { key, body: batch, headers: HEADERS });
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  return (response.body as CallAnswer[]).sort((x, y) => x.id - y.id);
}

const textsOf = (answers: CallAnswer[]) =>
  answers.map((a) => (a.result.isError ? a.result.content[0]!.text.split(":")[0] : "ok"));

/** The app runs with RATE_LIMIT_BURST 5 and a refill too slow to matter. */
export async function batchCountsPerCall(app: TestApp, tenant: Tenant): Promise<void> {
  const batch = Array.from({ length: 8 }, (_, i) =>
    toolCall(i + 1, "store_memory", { agent_id: "batcher", content: `Batch item ${i}` }),
  );
  // The request took one token, which covers its first call; four more calls find a token, three do
  // not.
  expect(textsOf(await postBatch(app, tenant.key, batch))).toEqual([
    "ok",
    "ok",
    "ok",
    "ok",
    "ok",
    "Rate Limit Exceeded",
    "Rate Limit Exceeded",
    "Rate Limit Exceeded",
  ]);
  const next = await app.request("GET", "/v1/memories/mem_unknown", { key: tenant.key });
  expect(next.status).toBe(429);
}

/**
 * The app embeds through `embedder` (a real HTTP server), which the test holds while it revokes the
 * key.
 */
export async function revokedKeyStopsBatch(
  app: TestApp,
  tenant: Tenant,
  embedder: ReturnType<typeof startFakeEmbeddingServer>,
): Promise<void> {
  const batch = Array.from({ length: 4 }, (_, i) =>
    toolCall(i + 1, "store_memory", {
      agent_id: "revoked-batch",
      content: `Stored before or after ${i}`,
    }),
  );
  embedder.pause();
  const pending = postBatch(app, tenant.key, batch);
  try {
    // The first call is waiting on the embedder: revoke the key before it gets its answer.
    for (let i = 0; i < 500 && embedder.waiting() === 0; i++) await Bun.sleep(10);
    expect(embedder.waiting()).toBe(1);
    const revoked = await app.request("DELETE", `/v1/api-keys/${tenant.keyId}`, {
      key: tenant.key,
    });
    expect(revoked.status, revoked.text).toBeLessThan(300);
  } finally {
    embedder.resume();
  }
  expect(textsOf(await pending)).toEqual([
    "ok",
    "Unauthenticated",
    "Unauthenticated",
    "Unauthenticated",
  ]);
}

/**
 * An empty batch is an Invalid Request, not a 202; a batch naming one request id twice is refused
 * before any call runs (the transport would answer the id once and run the others unanswered).
 */
export async function emptyAndDuplicateBatchesRefused(app: TestApp, tenant: Tenant): Promise<void> {
  const empty = await app.request("POST", "/mcp", { key: tenant.key, body: [], headers: HEADERS });
  expect(empty.status, empty.text).toBe(400);
  expect(empty.body.error.code).toBe(-32600);
  const twice = [1, 2, 1].map((id) =>
    toolCall(id, "store_memory", { agent_id: "twice", content: `Twice ${id}` }),
  );
  const duplicate = await app.request("POST", "/mcp", {
    key: tenant.key,
    body: twice,
    headers: HEADERS,
  });
  expect(duplicate.status, duplicate.text).toBe(400);
  expect(duplicate.body.error.code).toBe(-32600);
  const stored = await app.request("GET", "/v1/memories?agent_id=twice", { key: tenant.key });
  expect(stored.status, stored.text).toBe(200);
  expect(stored.body.items).toEqual([]);
}
