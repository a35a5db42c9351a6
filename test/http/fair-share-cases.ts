// A noisy neighbour for both database modes: tenant A floods with its worst allowed work
// (unanchored CYPHER cartesian products, an MCP batch of them, unknown keys from its address)
// while tenant B goes about its business from another. B's requests all succeed; A's extra heavy
// work waits its turn and is refused with 503 tenant-busy (a tenant-busy error per call in the
// batch), and its unknown keys run out of their address's bucket (429), never B's. Outcomes only.
import { expect } from "bun:test";
import { mintKey } from "../../src/domain/keys/format";
import type { Tenant, TestApp } from "../harness/app";
import { seedGraph } from "../graph/seed-graph";

/** Eight unanchored nodes over seven memos: millions of rows, far longer than TENANT_DB_WAIT_MS. */
export const CARTESIAN = "MATCH (a),(b),(c),(d),(e),(f),(g),(h) RETURN count(*) AS n";

export async function seedNoisy(app: TestApp, a: Tenant, b: Tenant): Promise<string> {
  const memos = Array.from({ length: 7 }, (_, i) => ({
    key: `m${i}`,
    type: "PERSON",
    name: `Person ${i}`,
  }));
  await seedGraph(app.deps.db, a.orgId, "noisy", memos, []);
  const stored = await app.request("POST", "/v1/memories", {
    key: b.key,
    body: { agent_id: "quiet", content: "The quiet tenant's note" },
  });
  expect(stored.status, stored.text).toBe(201);
  return stored.body.memory_id;
}

/** Client addresses behind the one trusted proxy, A's and B's, of this call alone (the Valkey
 * buckets outlive the app). */
let serial = 0;
const address = () => `2001:db8::${process.pid.toString(16)}:${(++serial).toString(16)}`;
const cypherCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name: "recall",
    arguments: { agent_id: "noisy", query: CARTESIAN, strategy: "CYPHER" },
  },
});
type CallAnswer = { id: number; result: { isError?: boolean; content: Array<{ text: string }> } };

/**
 * The app runs with TENANT_HEAVY_CONCURRENCY 1, a short TENANT_DB_WAIT_MS, TRUSTED_PROXY_HOPS 1
 * and a small RATE_LIMIT_UNAUTHENTICATED_BURST (UNKNOWN_KEY_BURST) refilled too slowly to matter.
 */
export const UNKNOWN_KEY_BURST = 3;

export async function noisyNeighbourIsContained(
  app: TestApp,
  a: Tenant,
  b: Tenant,
  bMemory: string,
): Promise<void> {
  const FROM_A = { "x-forwarded-for": address() };
  const FROM_B = { "x-forwarded-for": address() };
  const flood = Array.from({ length: 6 }, () =>
    app.request("POST", "/v1/memories/recall", {
      key: a.key,
      headers: FROM_A,
      body: { agent_id: "noisy", query: CARTESIAN, strategy: "CYPHER" },
    }),
  );
  const batch = app.request("POST", "/mcp", {
    key: a.key,
    headers: { ...FROM_A, accept: "application/json, text/event-stream" },
    body: [cypherCall(1), cypherCall(2)],
  });
  const unknownKeys = [];
  for (let i = 0; i < UNKNOWN_KEY_BURST + 5; i++)
    unknownKeys.push(
      await app.request("GET", `/v1/memories/${bMemory}`, {
        key: mintKey().plaintext,
        headers: FROM_A,
      }),
    );
  // B is an ordinary client: one request at a time, all through A's flood.
  const bAnswers = [];
  for (let i = 0; i < 8; i++) {
    bAnswers.push(
      i % 2 === 0
        ? await app.request("GET", `/v1/memories/${bMemory}`, { key: b.key, headers: FROM_B })
        : await app.request("POST", "/v1/memories/recall", {
            key: b.key,
            headers: FROM_B,
            body: { agent_id: "quiet", query: "quiet note", strategy: "LEXICAL" },
          }),
    );
  }
  const aAnswers = await Promise.all(flood);
  const batchAnswer = await batch;

  // A's unknown keys: 401 while its address's bucket lasts, then 429 before any lookup.
  expect(unknownKeys.map((r) => r.status)).toEqual([
    ...Array.from({ length: UNKNOWN_KEY_BURST }, () => 401),
    ...Array.from({ length: 5 }, () => 429),
  ]);
  // A's batch: each call ran its turn (a result, or CYPHER_TIMEOUT_MS) or was refused tenant-busy.
  expect(batchAnswer.status, batchAnswer.text.slice(0, 300)).toBe(200);
  for (const call of batchAnswer.body as CallAnswer[])
    if (call.result.isError)
      expect(call.result.content[0]!.text).toMatch(/^(Tenant Busy|Unprocessable|Query)/);

  expect(
    bAnswers.map((r) => r.status),
    bAnswers.map((r) => r.text.slice(0, 120)).join("\n"),
  ).toEqual(bAnswers.map(() => 200));
  const busy = aAnswers.filter((r) => r.status === 503);
  expect(
    busy.length,
    aAnswers.map((r) => `${r.status} ${r.text.slice(0, 120)}`).join("\n"),
  ).toBeGreaterThan(0);
  for (const refused of busy) {
    expect(refused.body.type).toEndWith("/errors/tenant-busy");
    expect(refused.headers.get("retry-after")).toBe("1");
  }
  // What A did run answered (or hit CYPHER_TIMEOUT_MS, a 422 naming the query): never a 500.
  for (const r of aAnswers) expect([200, 422, 503]).toContain(r.status);
}
