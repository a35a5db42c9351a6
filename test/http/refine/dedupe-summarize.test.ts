// dedupe and summarize through HTTP with a real worker on BullMQ: memos sharing an ontology URI
// merge into one node with all their edges (identical edges collapse, edges with other validity
// stay apart), the old id resolves through the tombstone; names merge on exact alias and on fuzzy
// evidence, never across numbers or types; summarize writes one SUMMARY memo per cluster, reuses it
// on the next run, retires it when its cluster changes or a memory it quotes is forgotten; dry runs
// change nothing.
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
  t = await testApp({ REFINE_ENABLED: true, SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-dd` });
  worker = await startWorker(t.deps);
});
afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

const memos = (orgId: string) =>
  withTenant(
    t.deps.db,
    orgId,
    (tx) =>
      tx`SELECT memo_id, name, memo_type, aliases, merged_into, retired_reason, ontology_uri FROM memos ORDER BY memo_id`,
  );
const liveEdges = (orgId: string) =>
  withTenant(
    t.deps.db,
    orgId,
    (tx) =>
      tx`SELECT edge_id, src_memo_id, dst_memo_id, relation, expired_reason, superseded_by FROM edges WHERE expired_at IS NULL ORDER BY edge_id`,
  );
const allEdges = (orgId: string) =>
  withTenant(
    t.deps.db,
    orgId,
    (tx) =>
      tx`SELECT edge_id, src_memo_id, dst_memo_id, relation, expired_reason, superseded_by FROM edges ORDER BY edge_id`,
  );

describe("dedupe", () => {
  test("NYC and New York City share an ontology URI: one node with all their edges; the old id still resolves", async () => {
    const tenant = await t.tenant("dd-nyc");
    const uri = "http://www.wikidata.org/entity/Q60";
    const y2020 = new Date("2020-01-01T00:00:00Z");
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [
        { name: "NYC", type: "PLACE", ontology_uri: uri },
        { name: "New York City", type: "PLACE", ontology_uri: uri },
        { name: "Ada", type: "PERSON" },
        { name: "Bob", type: "PERSON" },
        { name: "USA", type: "PLACE" },
      ],
      [
        { src: "Ada", relation: "LIVES_IN", dst: "NYC" },
        { src: "New York City", relation: "LOCATED_IN", dst: "USA", weight: 0.9 },
        { src: "Bob", relation: "LIVES_IN", dst: "New York City" },
        { src: "NYC", relation: "LOCATED_IN", dst: "USA", weight: 0.4 },
        // The same fact with another validity stays a separate edge.
        { src: "Ada", relation: "LIVES_IN", dst: "New York City", valid_at: y2020 },
        {
          src: "Ada",
          relation: "LIVES_IN",
          dst: "NYC",
          valid_at: new Date("2010-01-01T00:00:00Z"),
          invalid_at: new Date("2012-01-01T00:00:00Z"),
        },
      ],
    );
    // Three edges each: the survivor is the older memo, or on a tie the smaller id; either way the
    // same outcome.
    const status = await refine(t, tenant.key, { passes: ["dedupe"] });
    expect(status.state, JSON.stringify(status)).toBe("succeeded");
    expect(passOf(status, "dedupe").counts).toMatchObject({
      groups: 1,
      memos_merged: 1,
      merged_by_ontology: 1,
      edges_collapsed: 1,
    });
    const merge = status.changes.items.find((c: any) => c.action === "merge");
    const [canon, dupe] =
      merge.detail.merged_into === g.memo.NYC
        ? [g.memo.NYC!, g.memo["New York City"]!]
        : [g.memo["New York City"]!, g.memo.NYC!];
    expect(merge).toMatchObject({
      pass: "dedupe",
      target_kind: "memo",
      target_id: dupe,
      detail: { rule: "ontology_uri", ontology_uri: uri },
    });
    expect(merge.reason).toContain("share the ontology URI");

    const rows = await memos(tenant.orgId);
    const places = rows.filter((m) => m.memo_type === "PLACE" && m.name !== "USA");
    expect(places.find((m) => m.memo_id === dupe)).toMatchObject({
      merged_into: canon,
      retired_reason: "merged",
    });
    expect(places.find((m) => m.memo_id === canon)).toMatchObject({
      merged_into: null,
      retired_reason: null,
    });
    expect(places.find((m) => m.memo_id === canon)!.aliases).toContain(
      places.find((m) => m.memo_id === dupe)!.name,
    );

    const live = await liveEdges(tenant.orgId);
    expect(live.length).toBe(5);
    expect(live.every((e) => e.src_memo_id !== dupe && e.dst_memo_id !== dupe)).toBe(true);
    expect(live.filter((e) => e.relation === "LIVES_IN" && e.dst_memo_id === canon).length).toBe(4);
    const located = live.filter((e) => e.relation === "LOCATED_IN");
    expect(located.length).toBe(1);
    const collapsed = (await allEdges(tenant.orgId)).find((e) => e.expired_reason === "merged")!;
    expect(collapsed.superseded_by).toBe(located[0]!.edge_id);
    const [weight] = await withTenant(
      t.deps.db,
      tenant.orgId,
      (tx) => tx`SELECT weight FROM edges WHERE edge_id = ${located[0]!.edge_id}`,
    );
    expect(weight!.weight).toBeCloseTo(0.9, 5);

    // The old id resolves to the survivor in graph/data, with all the edges around it.
    const data = await t.request("GET", `/v1/graph/data?agent_id=agent&around=${dupe}`, {
      key: tenant.key,
    });
    expect(data.status, show(data)).toBe(200);
    expect(data.body.around.memo_ids).toEqual([canon]);
    expect(data.body.edges.length).toBe(5);
    // Both names find the one node.
    for (const name of ["NYC", "New York City"]) {
      const byName = await t.request(
        "GET",
        `/v1/graph/data?agent_id=agent&around=${encodeURIComponent(name)}`,
        { key: tenant.key },
      );
      expect(byName.body.around.memo_ids, name).toEqual([canon]);
    }

    // Idempotent: a second run finds nothing to merge.
    const again = await refine(t, tenant.key, { passes: ["dedupe"] });
    expect(passOf(again, "dedupe").counts).toEqual({});
    expect(again.changes_total).toBe(0);
  });

  test("names: exact aliases and fuzzy evidence merge; numbers, types and weak evidence never do", async () => {
    const tenant = await t.tenant("dd-names");
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [
        { name: "Acme Corporation", type: "ORG", aliases: ["acme"] },
        { name: "Acme", type: "ORG" },
        { name: "IBM", type: "ORG" },
        { name: "International Business Machines", type: "ORG" },
        { name: "Python 2", type: "TOOL" },
        { name: "Python 3", type: "TOOL" },
        { name: "Python", type: "TOOL" },
        { name: "Jordan", type: "PERSON" },
        { name: "jordan", type: "PLACE" },
        { name: "AI", type: "CONCEPT" },
        { name: "Adobe Illustrator", type: "TOOL" },
        { name: "Ada", type: "PERSON" },
        { name: "Berlin", type: "PLACE" },
      ],
      [
        { src: "Ada", relation: "WORKS_AT", dst: "IBM" },
        {
          src: "Ada",
          relation: "WORKS_AT",
          dst: "International Business Machines",
          valid_at: new Date("2021-01-01"),
        },
        { src: "IBM", relation: "LOCATED_IN", dst: "Berlin" },
        { src: "International Business Machines", relation: "LOCATED_IN", dst: "Berlin" },
        { src: "Ada", relation: "USES", dst: "Python 2" },
        { src: "Ada", relation: "USES", dst: "Python 3" },
        { src: "Ada", relation: "USES", dst: "Python" },
        { src: "Ada", relation: "KNOWS", dst: "Jordan" },
      ],
    );
    // "acme" as a lookup alias of Acme Corporation (memo_aliases, as distill writes it).
    await withTenant(t.deps.db, tenant.orgId, async (tx) => {
      await tx`INSERT INTO memo_aliases (org_id, agent_id, normalized_alias, memo_type, memo_id) VALUES (${tenant.orgId}, 'agent', 'acme', 'ORG', ${g.memo["Acme Corporation"]!})`;
    });

    const dry = await refine(t, tenant.key, { passes: ["dedupe"], dry_run: true });
    const merged = (s: any) =>
      s.changes.items
        .filter((c: any) => c.action === "merge")
        .map((c: any) => [c.target_id, c.detail.merged_into, c.detail.rule])
        .sort();
    expect(merged(dry).length).toBe(2);
    expect((await memos(tenant.orgId)).every((m) => m.retired_reason === null)).toBe(true);

    const real = await refine(t, tenant.key, { passes: ["dedupe"] });
    expect(merged(real)).toEqual(merged(dry));
    const rules = Object.fromEntries(
      real.changes.items
        .filter((c: any) => c.action === "merge")
        .map((c: any) => [c.detail.name, c.detail]),
    );
    // Acme and Acme Corporation merge on the exact alias (neither has edges: the older, or smaller
    // id, survives); the IBM pair on acronym + shared typed neighbours.
    const acme = rules.Acme ?? rules["Acme Corporation"];
    expect(acme).toMatchObject({ rule: "exact", evidence: { matched: "acme" } });
    expect([g.memo.Acme, g.memo["Acme Corporation"]]).toContain(acme.merged_into);
    const ibm = rules.IBM ?? rules["International Business Machines"];
    expect(ibm.rule).toBe("fuzzy");
    expect(ibm.evidence).toMatchObject({ acronym: true });
    expect(ibm.evidence.score).toBeGreaterThanOrEqual(0.8);
    const retired = (await memos(tenant.orgId))
      .filter((m) => m.retired_reason === "merged")
      .map((m) => m.name)
      .sort();
    expect(retired).toEqual([acme.name, ibm.name].sort());
    // Two WORKS_AT edges with different validity both survive on the merged node.
    expect((await liveEdges(tenant.orgId)).filter((e) => e.relation === "WORKS_AT").length).toBe(2);
  });
});

describe("summarize", () => {
  test("one summary per cluster, reused on the next run, replaced when the cluster changes, retired by forget", async () => {
    const tenant = await t.tenant("sum-cache");
    const stored = await t.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "agent", content: "Ada works at Acme in Berlin" },
    });
    expect(stored.status, show(stored)).toBe(201);
    const memoryId = stored.body.memory_id;
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [
        { name: "Ada", type: "PERSON" },
        { name: "Acme", type: "ORG" },
        { name: "Berlin", type: "PLACE" },
        { name: "Germany", type: "PLACE" },
        { name: "Zed", type: "PERSON" },
        { name: "Yara", type: "PERSON" },
        { name: "Xeno", type: "ORG" },
        { name: "Lone", type: "CONCEPT" },
      ],
      [
        { src: "Ada", relation: "WORKS_AT", dst: "Acme", weight: 0.9, sources: [memoryId] },
        { src: "Acme", relation: "LOCATED_IN", dst: "Berlin", weight: 0.8 },
        { src: "Berlin", relation: "LOCATED_IN", dst: "Germany", weight: 0.7 },
        { src: "Ada", relation: "LIVES_IN", dst: "Berlin", weight: 0.6 },
        { src: "Zed", relation: "KNOWS", dst: "Yara" },
        { src: "Yara", relation: "WORKS_AT", dst: "Xeno" },
        { src: "Zed", relation: "WORKS_AT", dst: "Xeno" },
        { src: "Germany", relation: "RELATED_TO", dst: "Xeno", weight: 0.01 },
      ],
    );
    const summaries = () =>
      withTenant(
        t.deps.db,
        tenant.orgId,
        (
          tx,
        ) => tx`SELECT memo_id, name, description, retired_reason, encode(cluster_hash, 'hex') AS hash,
      (SELECT array_agg(e.dst_memo_id ORDER BY e.dst_memo_id) FROM edges e WHERE e.src_memo_id = m.memo_id AND e.relation = 'SUMMARIZES' AND e.expired_at IS NULL) AS members
      FROM memos m WHERE memo_type = 'SUMMARY' ORDER BY created_at, memo_id`,
      );

    const dry = await refine(t, tenant.key, { passes: ["summarize"], dry_run: true });
    expect(passOf(dry, "summarize").counts).toMatchObject({ clusters: 2, summaries_written: 2 });
    expect((await summaries()).length).toBe(0);

    const first = await refine(t, tenant.key, { passes: ["summarize"] });
    expect(first.state, JSON.stringify(first)).toBe("succeeded");
    expect(passOf(first, "summarize").counts).toMatchObject({ clusters: 2, summaries_written: 2 });
    const written = await summaries();
    expect(written.length).toBe(2);
    const ada = written.find((s) => s.members.includes(g.memo.Ada))!;
    expect([...ada.members].sort()).toEqual(
      [g.memo.Ada, g.memo.Acme, g.memo.Berlin, g.memo.Germany].sort(),
    );
    expect(ada.description).toContain("Ada works at Acme");
    expect(written.find((s) => s.members.includes(g.memo.Zed))!.members.length).toBe(3);
    const created = first.changes.items.filter((c: any) => c.action === "summarize");
    expect(created.length).toBe(2);
    expect(created[0].reason).toContain("has no summary yet");

    // The next run reuses both: nothing written, nothing retired.
    const second = await refine(t, tenant.key, { passes: ["summarize"] });
    expect(passOf(second, "summarize").counts).toEqual({ clusters: 2, summaries_reused: 2 });
    expect(second.changes_total).toBe(0);
    expect((await summaries()).map((s) => s.memo_id)).toEqual(written.map((s) => s.memo_id));

    // A new member changes the hash: a new summary replaces the stale one; the other is reused.
    await seedGraph(t.deps.db, tenant.orgId, "agent", [{ name: "Wim", type: "PERSON" }], []);
    await withTenant(t.deps.db, tenant.orgId, async (tx) => {
      const [wim] = await tx`SELECT memo_id FROM memos WHERE name = 'Wim'`;
      await tx`INSERT INTO edges (org_id, edge_id, agent_id, src_memo_id, dst_memo_id, relation, fact, origin, confidence, weight)
        VALUES (${tenant.orgId}, ${"edge_0000000000" + "W".repeat(16)}, 'agent', ${wim!.memo_id}, ${g.memo.Zed!}, 'KNOWS', 'Wim knows Zed', 'extracted', 0.9, 0.9)`;
    });
    const third = await refine(t, tenant.key, { passes: ["summarize"] });
    expect(passOf(third, "summarize").counts).toEqual({
      clusters: 2,
      summaries_reused: 1,
      summaries_written: 1,
      summaries_retired: 1,
    });
    const after = await summaries();
    expect(after.filter((s) => s.retired_reason === null).length).toBe(2);
    expect(after.find((s) => s.retired_reason === "stale_summary")!.members).toBeNull();

    // Forgetting the memory a summary quotes retires that summary (the forget cascade).
    const forgot = await t.request("POST", "/v1/memories/forget", {
      key: tenant.key,
      body: { memory_id: memoryId },
    });
    expect(forgot.status, show(forgot)).toBe(200);
    const gone = (await summaries()).find((s) => s.memo_id === ada.memo_id)!;
    expect(gone.retired_reason).toBe("stale_summary");
  });
});
