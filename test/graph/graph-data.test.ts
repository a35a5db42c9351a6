// GET /v1/graph/data over HTTP on PostgreSQL: empty graph → 200 with empty arrays; the whole graph
// and `around` walks (by name, by memo id, through a refine merge); both timelines (as_of,
// include_expired); memo_type; caps and `truncated`; validation; redaction; tenant isolation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { newId } from "../../src/lib/ids";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";
import { fixtureExtractor } from "./fixture-extractor";
import { distill, storeAll } from "./helpers";

let t: TestApp;
let a: Tenant;
let b: Tenant;
const agent = "viewer";
const extractor = fixtureExtractor();
let memoryIds: string[];

const graph = (tenant: Tenant, query: string) =>
  t.request("GET", `/v1/graph/data?${query}`, { key: tenant.key });
const names = (body: { nodes: Array<{ name: string }> }) => body.nodes.map((n) => n.name).sort();
const facts = (body: { edges: Array<{ fact: string }> }) => body.edges.map((e) => e.fact).sort();

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("graph-a");
  b = await t.tenant("graph-b");
  memoryIds = await storeAll(t, a, agent, [
    "Alice works at Acme. Acme has its headquarters in Berlin.",
    "Bob knows Alice.",
    "In 2019 Alice moved to Paris.",
    "In 2023 Alice moved to Berlin.",
    "Bob uses Postgres.",
  ]);
  const job = await distill(t, a, extractor, agent, memoryIds);
  expect(job.state).toBe("succeeded");
});
afterAll(() => t.close());

describe("GET /v1/graph/data", () => {
  test("an agent without a graph gets 200 and empty arrays; another tenant sees none of this graph", async () => {
    for (const [tenant, agentId] of [
      [a, "nobody"],
      [b, agent],
    ] as const) {
      const res = await graph(tenant, `agent_id=${agentId}`);
      expect(res.status, show(res)).toBe(200);
      expect(res.body).toMatchObject({ nodes: [], edges: [], truncated: false });
      expect((await graph(tenant, `agent_id=${agentId}&around=Alice&depth=2`)).body.nodes).toEqual(
        [],
      );
    }
  });

  test("the whole graph: deduplicated nodes, current edges with both timelines and their sources", async () => {
    const res = await graph(a, `agent_id=${agent}`);
    expect(res.status, show(res)).toBe(200);
    expect(names(res.body)).toEqual(["Acme", "Alice", "Berlin", "Bob", "Paris", "Postgres"]);
    expect(facts(res.body)).toEqual([
      "Acme has its headquarters in Berlin.",
      "Alice works at Acme.",
      "Bob knows Alice.",
      "Bob uses Postgres.",
      "In 2023 Alice moved to Berlin.",
    ]);
    const byId = new Map(res.body.nodes.map((n: { id: string; name: string }) => [n.id, n.name]));
    const lives = res.body.edges.find((e: { relation: string }) => e.relation === "LIVES_IN");
    expect(lives).toMatchObject({
      valid_at: "2023-03-01T00:00:00.000Z",
      invalid_at: null,
      expired_at: null,
      source_memories: [{ memory_id: memoryIds[3], version: 1 }],
    });
    expect([byId.get(lives.source), byId.get(lives.target)]).toEqual(["Alice", "Berlin"]);
    expect(
      res.body.nodes.find((n: { name: string }) => n.name === "Alice").source_memories.length,
    ).toBe(4);
  });

  test("as_of reads the graph at an event time; include_expired shows the superseded edge with its invalid_at", async () => {
    const lived = async (query: string) =>
      (await graph(a, `agent_id=${agent}&${query}`)).body.edges
        .filter((e: { relation: string }) => e.relation === "LIVES_IN")
        .map((e: { fact: string; invalid_at: string | null }) => `${e.fact} until ${e.invalid_at}`);
    expect(await lived("as_of=2020-01-01T00:00:00Z")).toEqual([
      "In 2019 Alice moved to Paris. until 2023-03-01T00:00:00.000Z",
    ]);
    expect(await lived("as_of=2024-01-01T00:00:00Z")).toEqual([
      "In 2023 Alice moved to Berlin. until null",
    ]);
    expect(await lived("as_of=2018-01-01T00:00:00Z")).toEqual([]);
    expect((await lived("include_expired=true")).sort()).toEqual([
      "In 2019 Alice moved to Paris. until 2023-03-01T00:00:00.000Z",
      "In 2023 Alice moved to Berlin. until null",
    ]);
    const expired = (await graph(a, `agent_id=${agent}&include_expired=true`)).body.edges.find(
      (e: { fact: string }) => e.fact.includes("Paris"),
    );
    expect(expired).toMatchObject({
      expired_reason: "superseded",
      superseded_by: expect.stringMatching(/^edge_/),
    });
  });

  test("around a name walks `depth` hops; around a merged memo id resolves to the survivor", async () => {
    const one = await graph(a, `agent_id=${agent}&around=alice&depth=1`);
    expect(one.status, show(one)).toBe(200);
    expect(names(one.body)).toEqual(["Acme", "Alice", "Berlin", "Bob"]);
    const two = await graph(a, `agent_id=${agent}&around=ALICE&depth=2`);
    expect(names(two.body)).toEqual(["Acme", "Alice", "Berlin", "Bob", "Postgres"]);
    const aliceId = two.body.around.memo_ids[0];
    expect(two.body.around).toEqual({ query: "ALICE", memo_ids: [aliceId] });

    const mergedId = newId("memo");
    await withTenant(
      t.deps.db,
      a.orgId,
      (
        tx,
      ) => tx`INSERT INTO memos (org_id, memo_id, agent_id, memo_type, name, normalized_name, origin, merged_into, retired_at, retired_reason)
      VALUES (${a.orgId}, ${mergedId}, ${agent}, 'PERSON', 'A. Smith', 'a smith', 'extracted', ${aliceId}, now(), 'merged')`,
    );
    const merged = await graph(a, `agent_id=${agent}&around=${mergedId}`);
    expect(merged.body.around.memo_ids).toEqual([aliceId]);
    expect(names(merged.body)).toEqual(names(one.body));
    expect((await graph(b, `agent_id=${agent}&around=${aliceId}`)).body.nodes).toEqual([]);
  });

  test("memo_type filters nodes; limit caps them and says truncated", async () => {
    const people = await graph(a, `agent_id=${agent}&memo_type=PERSON`);
    expect(names(people.body)).toEqual(["Alice", "Bob"]);
    expect(facts(people.body)).toEqual(["Bob knows Alice."]);
    const capped = await graph(a, `agent_id=${agent}&limit=2`);
    expect(capped.body.nodes.length).toBe(2);
    expect(capped.body.truncated).toBe(true);
    expect((await graph(a, `agent_id=${agent}&around=Alice&depth=2&limit=3`)).body).toMatchObject({
      truncated: true,
      nodes: expect.any(Array),
    });
  });

  test("bad parameters are 422 problems naming the field", async () => {
    for (const [query, field] of [
      [`agent_id=${agent}&depth=2`, "depth"],
      [`agent_id=${agent}&memo_type=WIDGET`, "memo_type"],
      [`agent_id=${agent}&limit=501`, "limit"],
      [`agent_id=${agent}&as_of=yesterday`, "as_of"],
      [`agent_id=${agent}&around=Alice&depth=9`, "depth"],
      ["memo_type=PERSON", "agent_id"],
      [`agent_id=${agent}&around=%00`, "around"],
    ] as const) {
      const res = await graph(a, query);
      expect(res.status, `${query}: ${show(res)}`).toBe(422);
      expect(res.text).toContain(field);
    }
  });

  test("RETRIEVAL_REDACTION_ENABLED masks names and facts like memory content", async () => {
    const [email] = await storeAll(t, a, "redacted", [
      "Alice can be reached at alice@example.com.",
    ]);
    await distill(t, a, extractor, "redacted", [email!]);
    const plain = await graph(a, "agent_id=redacted");
    expect(JSON.stringify(plain.body)).toContain("alice@example.com");
    const redacting = await testApp({ RETRIEVAL_REDACTION_ENABLED: true });
    try {
      const res = await redacting.request("GET", "/v1/graph/data?agent_id=redacted", {
        key: a.key,
      });
      expect(res.status, show(res)).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain("alice@example.com");
      expect(names(res.body)).toEqual(["Alice", "[REDACTED:email]"]);
      expect(res.body.redactions).toBe(2);
    } finally {
      await redacting.close();
    }
  });
});
