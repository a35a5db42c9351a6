// The vector backlog (sql/0134, docs/recall.md), in both database modes: a batch store leaves its
// vectors outside the HNSW graph, VECTOR recall through the index ranks them exactly beside the
// graph's rows, the batch schedules svc.generate_embedding, which puts them in, and a forget or
// PATCH of a waiting memory meanwhile is neither lost nor resurrected.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { nearestQuery } from "../../../src/data/queries/recall/vector";
import { withTenant } from "../../../src/data/with-tenant";
import { graphBacklog } from "../../../src/domain/memories/vector-backlog";
import { startWorker } from "../../../src/queue/worker";
import { BullmqQueue } from "../../../src/queue/bullmq-queue";
import { show, TEST_QUEUE_PREFIX, testApp, type Tenant, type TestApp } from "../../harness/app";
import { createMigratedDatabase, dropDatabase } from "../../harness/databases";
import { embeddedApp } from "../../harness/embedded-app";
import { eventually } from "../../queue/wait";
import { recall } from "./seed";

const AGENT = "agent-backlog";
// Exact-sort bound 0: every search of the agent goes through the index shape, the one the backlog
// changes. ef_search 1000: the graph part is searched through (about 160 rows). What stays
// approximate is half precision: the graph keeps its top_k by halfvec distance, so rows within
// about 1e-3 of the cut may swap.
const CONFIG = {
  RECALL_VECTOR_EXACT_MAX_ROWS: 0,
  RECALL_HNSW_EF_SEARCH: 1000,
  SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-backlog`,
};
const QUERY = "which billing invoices did the finance team reconcile";
const topics = ["deploy pipeline", "search ranking", "cache eviction", "mobile release"];
// The graph holds notes on other topics; the waiting batch holds the billing notes the query asks
// about.
const inGraph = Array.from(
  { length: 120 },
  (_, i) => `note ${i}: the ${topics[i % 4]} work moved on day ${i % 28}`,
);
const waiting = Array.from(
  { length: 40 },
  (_, i) => `billing note ${i}: the finance team reconciled ${i % 7} invoices for region ${i % 5}`,
);

type Mode = {
  name: string;
  open(): Promise<{ app: TestApp; tenant: Tenant; close(): Promise<void> }>;
};

const modes: Mode[] = [
  {
    // A database of its own: in the shared one, this agent is a sliver of a graph other test files
    // filled, and a filtered walk of that graph ranks only approximately (vector-paths.test.ts),
    // which is not what these exact comparisons are about.
    name: "PostgreSQL, a database of its own",
    async open() {
      const name = `svc_t_${process.pid}_backlog_${Date.now().toString(36)}`;
      const app = await testApp(CONFIG, await createMigratedDatabase(name));
      return {
        app,
        tenant: await app.tenant("vector-backlog"),
        close: async () => {
          await (app.deps.queue as BullmqQueue).queue.obliterate({ force: true });
          await app.close();
          await dropDatabase(name);
        },
      };
    },
  },
  {
    name: "PGlite (embedded)",
    async open() {
      const e = await embeddedApp("vector-backlog", CONFIG);
      return { app: e.app, tenant: await e.tenant("vector-backlog"), close: () => e.close() };
    },
  },
];

for (const mode of modes) {
  describe(mode.name, () => {
    let app: TestApp;
    let tenant: Tenant;
    let close: () => Promise<void>;

    const batch = async (contents: string[]): Promise<string[]> => {
      const res = await app.request("POST", "/v1/memories/batch", {
        key: tenant.key,
        body: { memories: contents.map((content) => ({ agent_id: AGENT, content })) },
      });
      expect(res.status, show(res)).toBe(201);
      return res.body.memories.map((m: { memory_id: string }) => m.memory_id);
    };
    const flags = () =>
      withTenant(
        app.deps.db,
        tenant.orgId,
        (tx) => tx<
          { memory_id: string; version: number; current: boolean; vector_indexed: boolean }[]
        >`
      SELECT memory_id, version, valid_to IS NULL AS current, vector_indexed FROM memories ORDER BY memory_id, version`,
      );
    const waitingIds = async () =>
      (await flags()).filter((r) => r.current && !r.vector_indexed).map((r) => r.memory_id);
    const exactAnswer = async (limit: number) => {
      const vector = (await app.deps.embedder.embed([QUERY], { orgId: tenant.orgId })).vectors[0]!;
      const search = {
        filter: { orgId: tenant.orgId, agentId: AGENT },
        vector,
        dimensions: app.deps.config.EMBEDDING_DIMENSIONS,
        limit,
        efSearch: 40,
        maxScanTuples: 20000,
        exactMaxRows: 0,
      };
      return withTenant(app.deps.db, tenant.orgId, (tx) => nearestQuery(tx, search, "exact"));
    };
    const exactTop = async (limit: number) => (await exactAnswer(limit)).map((r) => r.memory_id);
    const vectorAnswer = async (topK: number) => {
      const res = await recall(app, tenant.key, {
        agent_id: AGENT,
        query: QUERY,
        strategy: "VECTOR",
        top_k: topK,
      });
      expect(res.status, show(res)).toBe(200);
      return res.body.results as Array<{ memory_id: string; score: number }>;
    };
    const vectorRecall = async (topK: number) => (await vectorAnswer(topK)).map((r) => r.memory_id);
    /** Place by place, the exact answer's scores, up to half precision's swaps at the cut. */
    const expectExactScores = async (topK: number) => {
      const [answered, exact] = [await vectorAnswer(topK), await exactAnswer(topK)];
      expect(answered).toHaveLength(exact.length);
      answered.forEach((r, i) =>
        expect(Math.abs(r.score - exact[i]!.score), `place ${i}`).toBeLessThan(2e-3),
      );
    };
    /** The deployment-wide backlog as /v1/ready and /metrics report it. */
    const backlogReported = async () => {
      const ready = await app.request("GET", "/v1/ready");
      expect(ready.status, show(ready)).toBe(200);
      const metrics = await app.request("GET", "/metrics");
      const line = String(metrics.text)
        .split("\n")
        .find((l) => l.startsWith("svc_vector_backlog_memories "));
      return {
        ready: ready.body.embeddings.graph_backlog as number,
        metric: Number(line?.split(" ")[1]),
      };
    };

    beforeAll(async () => {
      ({ app, tenant, close } = await mode.open());
    }, 60_000);
    afterAll(() => close());

    test("a batch waits outside the graph and schedules svc.generate_embedding, which puts it in; a single store enters at once", async () => {
      const ids = await batch(inGraph);
      expect((await waitingIds()).sort()).toEqual([...ids].sort());
      const single = await app.request("POST", "/v1/memories", {
        key: tenant.key,
        body: { agent_id: AGENT, content: "one memory stored alone" },
      });
      expect(single.status, show(single)).toBe(201);
      expect(
        (await flags()).find((r) => r.memory_id === single.body.memory_id)?.vector_indexed,
      ).toBe(true);

      // The job the batch enqueued, run by a real worker of this mode's queue.
      const worker = await startWorker(app.deps);
      try {
        await eventually(
          async () => (await waitingIds()).length === 0,
          "the batch's vectors to enter the graph",
          30_000,
        );
      } finally {
        await worker.close();
      }
      const rows = await flags();
      expect(
        rows
          .filter((r) => ids.includes(r.memory_id))
          .every((r) => r.current && r.vector_indexed && r.version === 1),
      ).toBe(true);
      expect(rows).toHaveLength(inGraph.length + 1); // a new row version, not a new memory version
    }, 60_000);

    test("through the index, VECTOR ranks waiting memories exactly beside the graph's", async () => {
      const billing = new Set(await batch(waiting));
      expect((await waitingIds()).length).toBe(waiting.length);
      const exact = await exactTop(10);
      // The premise: the nearest memories are the waiting ones, which the graph does not hold.
      expect(exact.filter((id) => billing.has(id)).length).toBeGreaterThanOrEqual(8);
      expect(await vectorRecall(10)).toEqual(exact);
      // Wider than the backlog: graph rows and waiting rows merge in exact order.
      await expectExactScores(60);
    });

    test("a forget or PATCH of a waiting memory is neither lost nor resurrected by the graphing", async () => {
      const [first, second] = (await exactTop(2)) as [string, string];
      const forget = await app.request("POST", "/v1/memories/forget", {
        key: tenant.key,
        body: { memory_id: first },
      });
      expect(forget.status, show(forget)).toBe(200);
      const patch = await app.request("PATCH", `/v1/memories/${second}`, {
        key: tenant.key,
        body: { content: "billing note: the finance team reconciled every invoice twice" },
      });
      expect(patch.status, show(patch)).toBe(200);
      // The new version is a single write: it enters the graph at once.
      const versions = (await flags()).filter((r) => r.memory_id === second);
      expect(versions.map((r) => [r.version, r.current, r.vector_indexed])).toEqual([
        [1, false, false],
        [2, true, true],
      ]);

      const before = (await flags()).length;
      const reported = await backlogReported();
      expect(reported.ready).toBeGreaterThanOrEqual(waiting.length - 2);
      const step = await graphBacklog(app.deps.db, tenant.orgId, 16, 100, 2);
      expect(step).toEqual({ graphed: waiting.length - 2, remaining: 0 });
      await Bun.sleep(1100); // past the readiness summary's cache
      const after = await backlogReported();
      expect(reported.ready - after.ready, "readiness counts what was graphed").toBe(
        waiting.length - 2,
      );
      expect(after.metric).toBe(after.ready);
      expect(await graphBacklog(app.deps.db, tenant.orgId, 16, 100)).toEqual({
        graphed: 0,
        remaining: 0,
      });
      expect((await flags()).length).toBe(before);

      const results = await vectorRecall(60);
      expect(results).not.toContain(first);
      expect(results).toContain(second);
      await expectExactScores(60);
    });
  });
}
