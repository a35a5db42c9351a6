// The distill pipeline on PostgreSQL with a test-double extractor: deduplicated memos,
// reinforcement instead of duplicate edges, idempotency over distilled versions, functional
// supersession (also out of order), negation, aliases, re-distill after a PATCH, and concurrent
// jobs naming the same entities.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";
import { fixtureExtractor } from "./fixture-extractor";
import { distill, edgesOf, live, memosOf, storeAll } from "./helpers";

let t: TestApp;
let tenant: Tenant;
const extractor = fixtureExtractor();

beforeAll(async () => {
  t = await testApp({ DISTILL_BATCH_SIZE: 2 });
  tenant = await t.tenant("distill");
});
afterAll(() => t.close());

describe("distill pipeline", () => {
  test("related facts become deduplicated memos and edges; restating reinforces; a rerun changes nothing", async () => {
    const agent = "pipeline";
    const ids = await storeAll(t, tenant, agent, [
      "Alice works at Acme.",
      "Alice is employed by Acme. Acme has its headquarters in Berlin.",
      "Bob uses Postgres.",
    ]);
    const [other] = await storeAll(t, tenant, "someone-else", ["Bob uses Postgres."]);
    const [gone] = await storeAll(t, tenant, agent, ["Alice works at Acme."]);
    expect(
      (
        await t.request("POST", "/v1/memories/forget", {
          key: tenant.key,
          body: { memory_id: gone },
        })
      ).status,
    ).toBe(200);

    const job = await distill(t, tenant, extractor, agent, [...ids, other!, gone!, "mem_unknown"]);
    expect(job.state, JSON.stringify(job)).toBe("succeeded");
    expect(job.result).toMatchObject({
      extractor: "fixture-v1",
      total: 3,
      done: 3,
      memories: {
        requested: 6,
        distilled: 3,
        already_distilled: 0,
        not_found: ["mem_unknown"],
        forgotten: [gone],
        other_agent: [other],
      },
      counts: { memos_created: 5, edges_created: 3, edges_superseded: 0 },
    });
    const memos = await memosOf(t, tenant, agent);
    expect(memos.map((m) => `${m.memo_type}:${m.name}`).sort()).toEqual([
      "ORG:Acme",
      "PERSON:Alice",
      "PERSON:Bob",
      "PLACE:Berlin",
      "TOOL:Postgres",
    ]);
    expect(memos.find((m) => m.name === "Postgres")!.aliases).toEqual(["PostgreSQL"]);
    expect(memos.find((m) => m.name === "Alice")!.mention_count).toBe(2);
    const edges = await edgesOf(t, tenant, agent);
    expect(
      edges.map((e) => `${e.src} ${e.relation} ${e.dst} x${e.mention_count}/${e.sources}`).sort(),
    ).toEqual([
      "Acme LOCATED_IN Berlin x1/1",
      "Alice WORKS_AT Acme x2/2",
      "Bob USES Postgres x1/1",
    ]);

    const again = await distill(t, tenant, extractor, agent, ids);
    expect(again.result).toMatchObject({
      memories: { distilled: 0, already_distilled: 3 },
      counts: { memos_created: 0, memos_reused: 0, edges_created: 0, edges_reinforced: 0 },
    });
    expect(await edgesOf(t, tenant, agent)).toEqual(edges);

    const [restated, viaAlias] = await storeAll(t, tenant, agent, [
      "Alice works at Acme.",
      "Carol uses PostgreSQL.",
    ]);
    const third = await distill(t, tenant, extractor, agent, [restated!, viaAlias!]);
    expect(third.result).toMatchObject({
      counts: { memos_created: 1, memos_reused: 3, edges_created: 1, edges_reinforced: 1 },
    });
    const after = await edgesOf(t, tenant, agent);
    const worksAt = after.find((e) => e.relation === "WORKS_AT")!;
    expect(worksAt.mention_count).toBe(3);
    expect(worksAt.weight).toBeGreaterThan(edges.find((e) => e.relation === "WORKS_AT")!.weight);
    expect(
      after
        .filter((e) => e.relation === "USES")
        .map((e) => `${e.src}->${e.dst}`)
        .sort(),
    ).toEqual(["Bob->Postgres", "Carol->Postgres"]);
  });

  test("a functional relation supersedes the older object, even when the older fact is distilled last", async () => {
    const agent = "moves";
    const [paris, berlin] = await storeAll(t, tenant, agent, [
      "In 2019 Alice moved to Paris.",
      "In 2023 Alice moved to Berlin.",
    ]);
    await distill(t, tenant, extractor, agent, [berlin!]);
    const job = await distill(t, tenant, extractor, agent, [paris!]);
    expect(job.result).toMatchObject({ counts: { edges_created: 1, edges_superseded: 1 } });
    const edges = await edgesOf(t, tenant, agent);
    const toParis = edges.find((e) => e.dst === "Paris")!;
    const toBerlin = edges.find((e) => e.dst === "Berlin")!;
    expect(toBerlin.expired_reason).toBeNull();
    expect(toParis).toMatchObject({
      expired_reason: "superseded",
      superseded_by: toBerlin.edge_id,
    });
    expect(toParis.invalid_at!.toISOString()).toBe("2023-03-01T00:00:00.000Z");

    const [munich] = await storeAll(t, tenant, agent, ["Alice lives in Munich."]);
    await distill(t, tenant, extractor, agent, [munich!]);
    const now = await edgesOf(t, tenant, agent);
    expect(live(now).map((e) => e.dst)).toEqual(["Munich"]);
    expect(now.find((e) => e.dst === "Berlin")!.superseded_by).toBe(
      now.find((e) => e.dst === "Munich")!.edge_id,
    );
  });

  test("a negated fact closes the edge and never opens one; a many-valued relation never supersedes", async () => {
    const agent = "negation";
    const [works, knows] = await storeAll(t, tenant, agent, [
      "Alice works at Acme.",
      "Bob knows Alice.",
    ]);
    await distill(t, tenant, extractor, agent, [works!, knows!]);
    const [quit, knowsAgain] = await storeAll(t, tenant, agent, [
      "Alice no longer works at Acme.",
      "Dave mentors Erin.",
    ]);
    const job = await distill(t, tenant, extractor, agent, [quit!, knowsAgain!]);
    expect(job.result).toMatchObject({ counts: { edges_created: 1, edges_superseded: 1 } });
    const edges = await edgesOf(t, tenant, agent);
    expect(edges.find((e) => e.relation === "WORKS_AT")).toMatchObject({
      expired_reason: "superseded",
      superseded_by: null,
    });
    expect(edges.find((e) => e.relation === "KNOWS")!.expired_reason).toBeNull();
    expect(edges.find((e) => e.relation === "MENTORS")!.expired_reason).toBeNull();
    expect(edges.filter((e) => e.relation === "WORKS_AT").length).toBe(1);
  });

  test("after a PATCH, distilling the new version retires what only the old version grounded", async () => {
    const agent = "revised";
    const [memory] = await storeAll(t, tenant, agent, ["Bob uses Postgres. Bob knows Alice."]);
    await distill(t, tenant, extractor, agent, [memory!]);
    const patch = await t.request("PATCH", `/v1/memories/${memory}`, {
      key: tenant.key,
      body: { content: "Bob knows Alice. Dave mentors Erin." },
    });
    expect(patch.status, show(patch)).toBe(200);
    const job = await distill(t, tenant, extractor, agent, [memory!]);
    expect(job.result).toMatchObject({
      counts: { edges_created: 1, edges_retired: 1, memos_retired: 1 },
    });
    const edges = await edgesOf(t, tenant, agent);
    expect(edges.map((e) => `${e.relation}:${e.expired_reason}:${e.sources}`).sort()).toEqual([
      "KNOWS:null:1",
      "MENTORS:null:1",
      "USES:source_revised:0",
    ]);
    const memos = await memosOf(t, tenant, agent);
    expect(memos.filter((m) => m.retired_reason === "source_revised").map((m) => m.name)).toEqual([
      "Postgres",
    ]);
    expect(memos.find((m) => m.name === "Bob")!.mention_count).toBe(1);
  });

  test("concurrent jobs naming the same entities end with one memo per entity and one edge per fact", async () => {
    const agent = "concurrent";
    const ids = await storeAll(
      t,
      tenant,
      agent,
      Array.from({ length: 12 }, (_, i) =>
        i % 2 ? "Alice works at Acme." : "Acme has its headquarters in Berlin.",
      ),
    );
    const slow = fixtureExtractor("fixture-v1", { beforeBatch: () => Bun.sleep(5) });
    const jobs = await Promise.all([
      distill(t, tenant, slow, agent, ids),
      distill(t, tenant, slow, agent, [...ids].reverse()),
      distill(t, tenant, slow, agent, ids.slice(3)),
    ]);
    expect(jobs.map((j) => j.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const memos = await memosOf(t, tenant, agent);
    expect(memos.map((m) => m.name).sort()).toEqual(["Acme", "Alice", "Berlin"]);
    expect(memos.find((m) => m.name === "Acme")!.mention_count).toBe(12);
    const edges = await edgesOf(t, tenant, agent);
    expect(edges.map((e) => `${e.relation} x${e.mention_count}/${e.sources}`).sort()).toEqual([
      "LOCATED_IN x6/6",
      "WORKS_AT x6/6",
    ]);
    const distilled = jobs.reduce(
      (n, j) => n + (j.result as { memories: { distilled: number } }).memories.distilled,
      0,
    );
    expect(distilled).toBe(12);
  });
});
