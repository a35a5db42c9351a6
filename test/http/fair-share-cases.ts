// A noisy neighbour for both database modes: tenant A floods with its worst allowed work (unanchored
// CYPHER cartesian products) while tenant B goes about its business. B's requests all succeed; A's
// extra heavy work waits its turn and is refused with 503 tenant-busy, never B's. Outcomes only.
import { expect } from "bun:test";
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

/** The app runs with TENANT_HEAVY_CONCURRENCY 1 and a short TENANT_DB_WAIT_MS. */
export async function noisyNeighbourIsContained(
  app: TestApp,
  a: Tenant,
  b: Tenant,
  bMemory: string,
): Promise<void> {
  const flood = Array.from({ length: 6 }, () =>
    app.request("POST", "/v1/memories/recall", {
      key: a.key,
      body: { agent_id: "noisy", query: CARTESIAN, strategy: "CYPHER" },
    }),
  );
  // B is an ordinary client: one request at a time, all through A's flood.
  const bAnswers = [];
  for (let i = 0; i < 8; i++) {
    bAnswers.push(
      i % 2 === 0
        ? await app.request("GET", `/v1/memories/${bMemory}`, { key: b.key })
        : await app.request("POST", "/v1/memories/recall", {
            key: b.key,
            body: { agent_id: "quiet", query: "quiet note", strategy: "LEXICAL" },
          }),
    );
  }
  const aAnswers = await Promise.all(flood);

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
