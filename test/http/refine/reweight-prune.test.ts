// Feedback → refine through HTTP with a real worker on BullMQ: the reweight pass blends signals
// into edge weights and memory importance (moving average, α = 0.3), prune decays and expires edges
// under the threshold (never user-asserted ones, never young ones without feedback), a dry run
// changes nothing, and the run reports counts, durations and paginated changes with reasons.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { BullmqQueue } from "../../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../../src/queue/worker";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../../harness/app";
import { edgeRow, passOf, refine } from "./helpers";
import { seedGraph } from "./seed-graph";

let t: TestApp;
let worker: RunningWorker;
const DAY = 86_400_000;
setDefaultTimeout(60_000);

beforeAll(async () => {
  t = await testApp({ REFINE_ENABLED: true, SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-rw` });
  worker = await startWorker(t.deps);
});
afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

const feedback = async (tenant: Tenant, body: Record<string, unknown>) => {
  const r = await t.request("POST", "/v1/feedback", { key: tenant.key, body });
  expect(r.status, show(r)).toBe(201);
  return r.body.feedback_id as string;
};

describe("reweight and prune", () => {
  test("negative feedback lowers an edge's weight by the moving average, and enough of it prunes the edge", async () => {
    const tenant = await t.tenant("rw-edge");
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [{ name: "Ada" }, { name: "Acme" }],
      [{ src: "Ada", relation: "WORKS_AT", dst: "Acme", weight: 0.5 }],
    );
    const edge = g.edge[0]!;
    const fb = await feedback(tenant, { signal: -1, edge_id: edge });

    const first = await refine(t, tenant.key, { passes: ["reweight", "prune"] });
    expect(first.state, JSON.stringify(first)).toBe("succeeded");
    expect(passOf(first, "reweight")).toMatchObject({
      state: "done",
      counts: { signals: 1, edges_reweighted: 1 },
    });
    expect(passOf(first, "reweight").duration_ms).toBeGreaterThanOrEqual(0);
    expect((await edgeRow(t.deps.db, tenant.orgId, edge)).weight).toBeCloseTo(0.35, 5);
    const change = first.changes.items.find((c: any) => c.pass === "reweight");
    expect(change).toMatchObject({
      action: "reweight",
      target_kind: "edge",
      target_id: edge,
      detail: { from: 0.5, to: 0.35 },
    });
    expect(change.reason).toContain("1 × −1");
    const [applied] = await withTenant(
      t.deps.db,
      tenant.orgId,
      (tx) => tx`SELECT applied_job_id FROM feedback WHERE feedback_id = ${fb}`,
    );
    expect(applied!.applied_job_id).toBe(first.job_id);

    for (let i = 0; i < 5; i++) await feedback(tenant, { signal: -1, edge_id: edge });
    const second = await refine(t, tenant.key, { passes: ["reweight", "prune"] });
    const row = await edgeRow(t.deps.db, tenant.orgId, edge);
    expect(row.weight).toBeCloseTo(0.35 * 0.7 ** 5, 4);
    expect(row.expired_reason).toBe("pruned");
    expect(row.feedback_count).toBe(6);
    expect(passOf(second, "prune").counts.edges_pruned).toBe(1);
    expect(second.changes.items.find((c: any) => c.pass === "prune")).toMatchObject({
      action: "prune",
      target_id: edge,
    });

    // The drained signals are not applied twice: a third run finds nothing to reweight.
    const third = await refine(t, tenant.key, { passes: ["reweight"] });
    expect(passOf(third, "reweight").counts).toEqual({});
  });

  test("prune never expires user-asserted edges, and spares young edges nobody judged; old weak edges go", async () => {
    const tenant = await t.tenant("rw-prune");
    const old = new Date(Date.now() - 3 * DAY);
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [{ name: "A" }, { name: "B" }, { name: "C" }, { name: "D" }],
      [
        { src: "A", relation: "KNOWS", dst: "B", weight: 0.01, origin: "user", created_at: old },
        { src: "A", relation: "KNOWS", dst: "C", weight: 0.05, created_at: old },
        { src: "A", relation: "KNOWS", dst: "D", weight: 0.05 },
        { src: "B", relation: "KNOWS", dst: "C", weight: 0.9, created_at: old },
      ],
    );
    const status = await refine(t, tenant.key, { passes: ["prune"] });
    expect(status.state).toBe("succeeded");
    const [user, oldWeak, youngWeak, strong] = await Promise.all(
      g.edge.map((e) => edgeRow(t.deps.db, tenant.orgId, e)),
    );
    expect(user!.expired_at).toBeNull();
    expect(user!.weight).toBeCloseTo(0.01, 6);
    expect(oldWeak!.expired_reason).toBe("pruned");
    expect(youngWeak!.expired_at).toBeNull();
    expect(strong!.expired_at).toBeNull();
    // Three days at a 90-day half-life: 0.9 · 0.5^(3/90).
    expect(strong!.weight).toBeCloseTo(0.9 * 0.5 ** (3 / 90), 3);
    expect(passOf(status, "prune").counts).toMatchObject({ edges_pruned: 1 });
  });

  test("feedback on a memory moves its importance and nudges the edges grounded in it at half the step", async () => {
    const tenant = await t.tenant("rw-memory");
    const stored = await t.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "agent", content: "Ada works at Acme", importance: 0.5 },
    });
    const memoryId = stored.body.memory_id;
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [{ name: "Ada" }, { name: "Acme" }],
      [{ src: "Ada", relation: "WORKS_AT", dst: "Acme", weight: 0.5, sources: [memoryId] }],
    );
    await feedback(tenant, { signal: 1, memory_id: memoryId });
    const status = await refine(t, tenant.key, { passes: ["reweight"] });
    expect(passOf(status, "reweight").counts).toEqual({
      signals: 1,
      edges_reweighted: 1,
      memories_reweighted: 1,
    });
    const memory = await t.request("GET", `/v1/memories/${memoryId}`, { key: tenant.key });
    expect(memory.body.importance).toBeCloseTo(0.65, 5);
    expect(memory.body.version).toBe(1);
    const edge = await edgeRow(t.deps.db, tenant.orgId, g.edge[0]!);
    expect(edge.weight).toBeCloseTo(0.575, 5);
    expect(edge.feedback_count).toBe(0);
  });

  test("a dry run records what would change and changes nothing; the real run then does exactly that", async () => {
    const tenant = await t.tenant("rw-dry");
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [{ name: "X" }, { name: "Y" }, { name: "Z" }],
      [
        { src: "X", relation: "USES", dst: "Y", weight: 0.2 },
        { src: "Y", relation: "USES", dst: "Z", weight: 0.8 },
      ],
    );
    for (let i = 0; i < 3; i++) await feedback(tenant, { signal: -1, edge_id: g.edge[0] });
    await feedback(tenant, { signal: 1, edge_id: g.edge[1] });

    const dry = await refine(t, tenant.key, { passes: ["reweight", "prune"], dry_run: true });
    expect(dry.dry_run).toBe(true);
    const wouldPrune = dry.changes.items
      .filter((c: any) => c.action === "prune")
      .map((c: any) => c.target_id);
    expect(wouldPrune).toEqual([g.edge[0]]);
    expect((await edgeRow(t.deps.db, tenant.orgId, g.edge[0]!)).weight).toBeCloseTo(0.2, 6);
    expect((await edgeRow(t.deps.db, tenant.orgId, g.edge[0]!)).expired_at).toBeNull();
    const [pending] = await withTenant(
      t.deps.db,
      tenant.orgId,
      (tx) => tx`SELECT count(*)::int AS n FROM feedback WHERE applied_at IS NULL`,
    );
    expect(pending!.n).toBe(4);

    const real = await refine(t, tenant.key, { passes: ["reweight", "prune"] });
    const strip = (s: any) =>
      s.changes.items.map((c: any) => [c.pass, c.action, c.target_id, c.detail.to]);
    expect(strip(real).map((c: any[]) => c.slice(0, 3))).toEqual(
      strip(dry).map((c: any[]) => c.slice(0, 3)),
    );
    const numbers = (s: any) =>
      strip(s)
        .map((c: any[]) => c[3])
        .filter((v: unknown) => typeof v === "number");
    expect(numbers(real).length).toBe(3);
    numbers(real).forEach((v: number, i: number) => expect(v).toBeCloseTo(numbers(dry)[i], 4));
    expect((await edgeRow(t.deps.db, tenant.orgId, g.edge[0]!)).expired_reason).toBe("pruned");
  });
});

describe("the refine job API", () => {
  test("changes page with a cursor; unknown, malformed and another tenant's job ids are 404; bad input is a 422", async () => {
    const [tenant, other] = [await t.tenant("rw-api"), await t.tenant("rw-api-other")];
    const g = await seedGraph(
      t.deps.db,
      tenant.orgId,
      "agent",
      [{ name: "P" }, { name: "Q" }, { name: "R" }],
      [
        { src: "P", relation: "KNOWS", dst: "Q" },
        { src: "Q", relation: "KNOWS", dst: "R" },
        { src: "P", relation: "KNOWS", dst: "R" },
      ],
    );
    for (const e of g.edge) await feedback(tenant, { signal: 0, edge_id: e });
    const status = await refine(t, tenant.key, { passes: ["reweight"], agent_id: "agent" });
    expect(status.changes_total).toBe(3);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await t.request(
        "GET",
        `/v1/refine/${status.job_id}?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        { key: tenant.key },
      );
      expect(page.status, show(page)).toBe(200);
      seen.push(...page.body.changes.items.map((c: any) => c.seq));
      cursor = page.body.changes.next_cursor;
    } while (cursor);
    expect(seen).toEqual([1, 2, 3]);

    expect((await t.request("GET", `/v1/refine/${status.job_id}`, { key: other.key })).status).toBe(
      404,
    );
    expect(
      (await t.request("GET", "/v1/refine/job_00000000000000000000000000", { key: tenant.key }))
        .status,
    ).toBe(404);
    expect((await t.request("GET", "/v1/refine/not-a-job", { key: tenant.key })).status).toBe(404);
    expect(
      (await t.request("GET", `/v1/refine/${status.job_id}?cursor=zzz`, { key: tenant.key }))
        .status,
    ).toBe(422);
    for (const body of [
      { passes: ["dedupe", "dedupe"] },
      { passes: ["compact"] },
      { passes: [] },
      { dry_run: "yes" },
      { agent_id: "a\u0000b" },
      { extra: 1 },
    ]) {
      const r = await t.request("POST", "/v1/refine", { key: tenant.key, body });
      expect(r.status, `${JSON.stringify(body)} → ${show(r)}`).toBe(422);
    }
    const audit = await withTenant(
      t.deps.db,
      tenant.orgId,
      (tx) =>
        tx`SELECT detail->>'phase' AS phase, key_id FROM audit_pending WHERE operation = 'refine' ORDER BY id`,
    );
    expect(audit.map((a) => a.phase)).toEqual(["requested", "succeeded"]);
    expect(audit.every((a) => a.key_id === tenant.keyId)).toBe(true);
  });
});
