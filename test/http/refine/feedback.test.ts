// POST /v1/feedback through the real app: validation names the field, targets are checked (unknown,
// another tenant's, another agent's → 404; forgotten or expired → 410), a signal is stored pending
// and audited, and nothing in the graph changes until a refine run.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";
import { seedGraph, type SeededGraph } from "./seed-graph";

let t: TestApp;
let a: Tenant;
let b: Tenant;
let graphA: SeededGraph;
let graphB: SeededGraph;
let memoryA: string;

beforeAll(async () => {
  t = await testApp({ REFINE_ENABLED: true });
  [a, b] = [await t.tenant("fb-a"), await t.tenant("fb-b")];
  const stored = await t.request("POST", "/v1/memories", {
    key: a.key,
    body: { agent_id: "agent", content: "Ada works at Acme" },
  });
  memoryA = stored.body.memory_id;
  graphA = await seedGraph(
    t.deps.db,
    a.orgId,
    "agent",
    [
      { name: "Ada", type: "PERSON" },
      { name: "Acme", type: "ORG" },
      { name: "Bob", type: "PERSON" },
    ],
    [
      { src: "Ada", relation: "WORKS_AT", dst: "Acme", sources: [memoryA] },
      { src: "Bob", relation: "WORKS_AT", dst: "Acme" },
    ],
  );
  graphB = await seedGraph(
    t.deps.db,
    b.orgId,
    "agent",
    [{ name: "Eve" }, { name: "Mallory" }],
    [{ src: "Eve", relation: "KNOWS", dst: "Mallory" }],
  );
});
afterAll(() => t.close());

const feedback = (key: string, body: unknown) => t.request("POST", "/v1/feedback", { key, body });

test("a signal outside -1, 0, +1 (or not an integer) is a 422 naming signal; target fields are checked", async () => {
  const edge = graphA.edge[0]!;
  for (const signal of [2, -2, 0.5, "1", null]) {
    const r = await feedback(a.key, { signal, edge_id: edge });
    expect(r.status, show(r)).toBe(422);
    expect(JSON.stringify(r.body.errors)).toContain("signal");
  }
  const both = await feedback(a.key, { signal: 1, edge_id: edge, memory_id: memoryA });
  expect(both.status).toBe(422);
  expect(both.body.errors[0].path).toBe("/memory_id");
  expect((await feedback(a.key, { signal: 1 })).status).toBe(422);
  const nul = await feedback(a.key, { signal: 1, edge_id: edge, note: "bad\u0000note" });
  expect(nul.status, show(nul)).toBe(422);
  expect(nul.body.errors[0].path).toBe("/note");
  const long = await feedback(a.key, {
    signal: 1,
    edge_id: edge,
    note: "x".repeat(t.config.REFINE_FEEDBACK_NOTE_MAX_CHARS + 1),
  });
  expect(long.status).toBe(422);
  expect(JSON.stringify(long.body.errors)).toContain("note");
  const pending = await withTenant(
    t.deps.db,
    a.orgId,
    (tx) => tx`SELECT count(*)::int AS n FROM feedback`,
  );
  expect(pending[0]!.n).toBe(0);
});

test("unknown, malformed, another tenant's and another agent's targets are 404; forgotten or expired targets 410", async () => {
  expect((await feedback(a.key, { signal: -1, edge_id: graphB.edge[0] })).status).toBe(404);
  expect((await feedback(b.key, { signal: -1, memory_id: memoryA })).status).toBe(404);
  expect((await feedback(a.key, { signal: -1, edge_id: "edge_nope" })).status).toBe(404);
  expect(
    (await feedback(a.key, { signal: -1, memory_id: "mem_00000000000000000000000000" })).status,
  ).toBe(404);
  expect(
    (await feedback(a.key, { signal: -1, edge_id: graphA.edge[0], agent_id: "someone-else" }))
      .status,
  ).toBe(404);

  const doomed = await t.request("POST", "/v1/memories", {
    key: a.key,
    body: { agent_id: "agent", content: "to be forgotten" },
  });
  await t.request("POST", "/v1/memories/forget", {
    key: a.key,
    body: { memory_id: doomed.body.memory_id },
  });
  expect((await feedback(a.key, { signal: 1, memory_id: doomed.body.memory_id })).status).toBe(410);
  await withTenant(
    t.deps.db,
    a.orgId,
    (tx) =>
      tx`UPDATE edges SET expired_at = now(), expired_reason = 'superseded' WHERE edge_id = ${graphA.edge[1]!}`,
  );
  const expired = await feedback(a.key, { signal: 1, edge_id: graphA.edge[1] });
  expect(expired.status, show(expired)).toBe(410);
  expect(expired.body.detail).toContain("superseded");
});

test("a valid signal is stored pending with the target's agent and audited; the edge is untouched until refine", async () => {
  const edge = graphA.edge[0]!;
  const r = await feedback(a.key, {
    signal: -1,
    edge_id: edge,
    note: "Ada left Acme",
    agent_id: "agent",
  });
  expect(r.status, show(r)).toBe(201);
  expect(r.body).toMatchObject({
    target_kind: "edge",
    target_id: edge,
    signal: -1,
    note: "Ada left Acme",
    agent_id: "agent",
    state: "pending",
    applied_at: null,
  });
  const m = await feedback(a.key, { signal: 1, memory_id: memoryA });
  expect(m.status, show(m)).toBe(201);
  expect(m.body).toMatchObject({ target_kind: "memory", agent_id: "agent", note: null });
  const [row] = await withTenant(
    t.deps.db,
    a.orgId,
    (tx) => tx`SELECT weight, feedback_count FROM edges WHERE edge_id = ${edge}`,
  );
  expect(row).toEqual({ weight: 0.5, feedback_count: 0 });
  const [pending] = await withTenant(
    t.deps.db,
    a.orgId,
    (tx) =>
      tx`SELECT count(*)::int AS n, count(key_id)::int AS keyed FROM feedback WHERE applied_at IS NULL`,
  );
  expect(pending).toEqual({ n: 2, keyed: 2 });
  const audit = await withTenant(
    t.deps.db,
    a.orgId,
    (tx) =>
      tx`SELECT target_ids, detail FROM audit_pending WHERE operation = 'feedback' ORDER BY id`,
  );
  expect(audit.map((x) => x.target_ids[0])).toEqual([edge, memoryA]);
});
