// infer through HTTP with a real worker on BullMQ: one extra hop of a transitive relation (only
// over overlapping validity), the missing half of a declared inverse (never against a stated single
// value), RELATED_TO between memos mentioned together often enough; inferred edges are marked,
// lighter than their premises, never touch extracted edges, are not inferred twice, and end when a
// premise's memory is forgotten. A dry run reports the same edges and writes none.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { BullmqQueue } from "../../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../../src/queue/worker";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp } from "../../harness/app";
import { passOf, refine } from "./helpers";
import { seedGraph } from "./seed-graph";

let t: TestApp;
let worker: RunningWorker;
setDefaultTimeout(60_000);

beforeAll(async () => {
  t = await testApp({ REFINE_ENABLED: true, SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-inf` });
  worker = await startWorker(t.deps);
});
afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

describe("infer", () => {
  test("transitive hops, inverses and co-mentions become inferred edges; extracted edges stay as they were", async () => {
    const tenant = await t.tenant("infer");
    const memory = async (content: string) => {
      const r = await t.request("POST", "/v1/memories", {
        key: tenant.key,
        body: { agent_id: "agent", content },
      });
      expect(r.status, show(r)).toBe(201);
      return r.body.memory_id as string;
    };
    const [m1, m2, m3] = [
      await memory("Xavier met Yusuf"),
      await memory("Xavier and Yusuf again"),
      await memory("Berlin is in Germany"),
    ];
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [
        { name: "Berlin", type: "PLACE" },
        { name: "Germany", type: "PLACE" },
        { name: "Europe", type: "PLACE" },
        { name: "Ada", type: "PERSON" },
        { name: "Bob", type: "PERSON" },
        { name: "Carol", type: "PERSON" },
        { name: "Dan", type: "PERSON" },
        { name: "Eve", type: "PERSON" },
        { name: "Fay", type: "PERSON" },
        { name: "Gus", type: "PERSON" },
        { name: "P", type: "PLACE" },
        { name: "Q", type: "PLACE" },
        { name: "R", type: "PLACE" },
        { name: "Xavier", type: "PERSON", sources: [m1, m2] },
        { name: "Yusuf", type: "PERSON", sources: [m1, m2] },
        { name: "Zoe", type: "PERSON", sources: [m1] },
      ],
      [
        { src: "Berlin", relation: "LOCATED_IN", dst: "Germany", weight: 0.9, sources: [m3] },
        { src: "Germany", relation: "LOCATED_IN", dst: "Europe", weight: 0.5 },
        { src: "Ada", relation: "REPORTS_TO", dst: "Bob", weight: 0.6 },
        { src: "Carol", relation: "REPORTS_TO", dst: "Dan" },
        { src: "Dan", relation: "MANAGES", dst: "Carol" },
        { src: "Eve", relation: "MANAGES", dst: "Fay" },
        { src: "Fay", relation: "REPORTS_TO", dst: "Gus" },
        {
          src: "P",
          relation: "LOCATED_IN",
          dst: "Q",
          valid_at: new Date("2000-01-01"),
          invalid_at: new Date("2001-01-01"),
        },
        { src: "Q", relation: "LOCATED_IN", dst: "R", valid_at: new Date("2005-01-01") },
        { src: "Xavier", relation: "KNOWS", dst: "Zoe" },
      ],
    );
    const name = Object.fromEntries(Object.entries(g.memo).map(([k, v]) => [v, k]));
    const inferred = () =>
      withTenant(
        t.deps.db,
        tenant.orgId,
        (
          tx,
        ) => tx`SELECT edge_id, src_memo_id, dst_memo_id, relation, weight, confidence, origin, expired_reason
      FROM edges WHERE origin = 'inferred' ORDER BY relation, src_memo_id`,
      );
    const extractedBefore = await withTenant(
      t.deps.db,
      tenant.orgId,
      (tx) => tx`SELECT edge_id, weight, expired_at FROM edges ORDER BY edge_id`,
    );
    // RELATED_TO is symmetric (stored from the smaller memo id): name its ends in alphabetical
    // order.
    const triple = (e: any) => {
      const ends = [name[e.src_memo_id]!, name[e.dst_memo_id]!];
      if (e.relation === "RELATED_TO") ends.sort();
      return `${ends[0]} ${e.relation} ${ends[1]}`;
    };
    const expected = [
      "Berlin LOCATED_IN Europe",
      "Bob MANAGES Ada",
      "Gus MANAGES Fay",
      "Xavier RELATED_TO Yusuf",
    ].sort();

    const dry = await refine(t, tenant.key, { passes: ["infer"], dry_run: true });
    expect(dry.changes.items.map((c: any) => triple(c.detail)).sort()).toEqual(expected);
    expect((await inferred()).length).toBe(0);

    const real = await refine(t, tenant.key, { passes: ["infer"] });
    expect(real.state, JSON.stringify(real)).toBe("succeeded");
    expect(passOf(real, "infer").counts).toEqual({
      edges_inferred_transitive: 1,
      edges_inferred_inverse: 2,
      edges_inferred_co_mention: 1,
    });
    const rows = await inferred();
    expect(rows.map(triple).sort()).toEqual(expected);
    const byTriple = Object.fromEntries(rows.map((r) => [triple(r), r]));
    expect(byTriple["Berlin LOCATED_IN Europe"]!.weight).toBeCloseTo(0.8 * 0.5, 5);
    expect(byTriple["Bob MANAGES Ada"]!.weight).toBeCloseTo(0.8 * 0.6, 5);
    const related = real.changes.items.find((c: any) => c.detail.rule === "co_mention");
    expect(related.reason).toContain("mentioned together in 2 memories");
    expect(related.detail.score).toBeCloseTo(1 / Math.log(4) + 1 / Math.log(3), 3); // m1 grounds three memos, m2 two
    expect(byTriple["Xavier RELATED_TO Yusuf"]!.confidence).toBeCloseTo(
      related.detail.score / (related.detail.score + 1),
      3,
    );
    expect(real.changes.items.find((c: any) => c.detail.rule === "transitive").reason).toContain(
      "LOCATED_IN is transitive",
    );
    // Extracted edges are untouched.
    const extractedAfter = await withTenant(
      t.deps.db,
      tenant.orgId,
      (tx) =>
        tx`SELECT edge_id, weight, expired_at FROM edges WHERE origin <> 'inferred' ORDER BY edge_id`,
    );
    expect(extractedAfter).toEqual(extractedBefore);

    // Nothing is inferred twice.
    const again = await refine(t, tenant.key, { passes: ["infer"] });
    expect(passOf(again, "infer").counts).toEqual({});
    expect((await inferred()).length).toBe(4);

    // Forgetting a memory behind a premise ends the inference; so does forgetting one of the
    // co-mentions.
    for (const m of [m3, m1]) {
      const r = await t.request("POST", "/v1/memories/forget", {
        key: tenant.key,
        body: { memory_id: m },
      });
      expect(r.status, show(r)).toBe(200);
    }
    const after = Object.fromEntries((await inferred()).map((r) => [triple(r), r.expired_reason]));
    expect(after).toEqual({
      "Berlin LOCATED_IN Europe": "source_forgotten",
      "Bob MANAGES Ada": null,
      "Gus MANAGES Fay": null,
      "Xavier RELATED_TO Yusuf": "source_forgotten",
    });
  });
});
