// VECTOR's shapes (src/data/queries/recall/vector.ts), in both database modes: an agent above
// RECALL_VECTOR_EXACT_MAX_ROWS is searched through the HNSW index, and when a selective filter
// leaves that index scan short of top_k, the exact shape answers, so a filter never silently
// shortens the result.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  cheaperShape,
  nearestQuery,
  setHnswSearch,
  vectorSearch,
} from "../../../src/data/queries/recall/vector";
import { withTenant } from "../../../src/data/with-tenant";
import { createVectorShapeHints } from "../../../src/domain/recall/vector-shapes";
import { privateTestApp, testApp, type Tenant, type TestApp } from "../../harness/app";
import { embeddedApp } from "../../harness/embedded-app";
import { createMigratedDatabase, dropDatabase } from "../../harness/databases";
import { recall, seed } from "./seed";

const AGENT = "agent-vector-large";
// Small numbers keep the embedded mode fast: 300 memories, above an exact-sort bound of 100.
const CONFIG = { RECALL_VECTOR_EXACT_MAX_ROWS: 100, RECALL_HNSW_MAX_SCAN_TUPLES: 100 };
const SIZE = 300;
// Every 25th memory (from the second) is on the rare shelf: 12 of 300, all from the search team,
// while the query is about the billing team: the rare rows are not the query's neighbours.
const RARE_EVERY = 25;
const isRare = (i: number) => i % RARE_EVERY === 1;
const contents = Array.from(
  { length: SIZE },
  (_, i) =>
    `note ${i}: the ${["billing", "search", "deploy", "cache", "mobile"][i % 5]} team discussed item ${(i * 7919) % 1000} on day ${i % 31}`,
);
const QUERY = "what did the billing team discuss about item 42";

type Mode = {
  name: string;
  open(): Promise<{ app: TestApp; tenant: Tenant; close(): Promise<void> }>;
};

const modes: Mode[] = [
  {
    name: "PostgreSQL",
    // A database of its own: the service refreshes the shared table's statistics after other
    // tests' bulk writes, and then plans this small agent as an exact scan (no short index scan).
    async open() {
      const app = await privateTestApp("vector_paths", CONFIG);
      return { app, tenant: await app.tenant("vector-paths"), close: () => app.close() };
    },
  },
  {
    name: "PGlite (embedded)",
    async open() {
      const e = await embeddedApp("vector-paths", CONFIG);
      return { app: e.app, tenant: await e.tenant("vector-paths"), close: () => e.close() };
    },
  },
];

for (const mode of modes) {
  describe(mode.name, () => {
    let app: TestApp;
    let tenant: Tenant;
    let close: () => Promise<void>;
    let rare: Set<string>;

    beforeAll(async () => {
      ({ app, tenant, close } = await mode.open());
      const ids: string[] = [];
      ids.push(
        ...(await seed(
          app,
          tenant,
          AGENT,
          contents.map((content, i) => ({
            content,
            metadata: isRare(i) ? { shelf: "rare" } : { shelf: "common" },
          })),
        )),
      );
      rare = new Set(ids.filter((_, i) => isRare(i)));
    }, 60_000);
    afterAll(() => close());

    test("a selective filter on a large agent still returns top_k, in exact order", async () => {
      const dimensions = app.deps.config.EMBEDDING_DIMENSIONS;
      const vector = (await app.deps.embedder.embed([QUERY], { orgId: tenant.orgId })).vectors[0]!;
      const search = {
        filter: { orgId: tenant.orgId, agentId: AGENT, metadata: { shelf: "rare" } },
        vector,
        dimensions,
        limit: 10,
        efSearch: 10,
        maxScanTuples: 30,
        exactMaxRows: CONFIG.RECALL_VECTOR_EXACT_MAX_ROWS,
      };
      const { viaIndex, answered, exact } = await withTenant(
        app.deps.db,
        tenant.orgId,
        async (tx) => {
          // Price out every plan but the HNSW scan, and let the iterative scan stop after 30
          // tuples.
          await tx`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`;
          await setHnswSearch(tx, search.efSearch, search.maxScanTuples);
          const viaIndex = await nearestQuery(tx, search, "index");
          const answered = await vectorSearch(tx, search);
          const exact = await nearestQuery(tx, search, "exact");
          return { viaIndex, answered, exact };
        },
      );
      // The premise: the index scan alone comes back short.
      expect(viaIndex.length).toBeLessThan(10);
      expect(answered.map((r) => r.memory_id)).toEqual(exact.map((r) => r.memory_id));
      expect(answered).toHaveLength(10);
      for (const r of answered) expect(rare.has(r.memory_id)).toBe(true);
    });

    test("over HTTP, the same filter returns top_k rare memories", async () => {
      const res = await recall(app, tenant.key, {
        agent_id: AGENT,
        query: QUERY,
        strategy: "VECTOR",
        top_k: 10,
        filters: { metadata: { shelf: "rare" } },
      });
      expect(res.status).toBe(200);
      expect(res.body.results).toHaveLength(10);
      for (const r of res.body.results) expect(rare.has(r.memory_id)).toBe(true);
    });
  });
}

// Alone in its graph: forced through the index, an agent that is a sliver of a graph other tests
// filled is the filtered-HNSW case, which ranks only approximately whatever the distance (8 of 10
// measured with 100k other rows); production sorts such an agent exactly (cheaperShape). Here the
// agent is the whole graph, so what is measured is the index's distance alone.
const lengthModes: Mode[] = [
  {
    name: "PostgreSQL, a database of its own",
    async open() {
      const name = `svc_t_${process.pid}_lengths_${Date.now().toString(36)}`;
      const app = await testApp(CONFIG, await createMigratedDatabase(name));
      return {
        app,
        tenant: await app.tenant("vector-lengths"),
        close: async () => {
          await app.close();
          await dropDatabase(name);
        },
      };
    },
  },
  modes[1]!,
];

for (const mode of lengthModes) {
  describe(mode.name, () => {
    test("through the index, memories of very different lengths rank as an exact scan ranks them", async () => {
      const { app, tenant, close } = await mode.open();
      try {
        // A quantization that favours short texts (sign bits compared by Hamming distance: a
        // two-word note has few bits, so it is "near" everything) fails this; an index that
        // approximates cosine passes it.
        const agent = "agent-vector-lengths";
        const topics = [
          "billing",
          "search",
          "deploy",
          "cache",
          "mobile",
          "payments",
          "security",
          "pricing",
        ];
        const mixed = Array.from({ length: 240 }, (_, i) => {
          const topic = topics[i % topics.length]!;
          return i % 3 === 0
            ? `${topic} ok`
            : `the ${topic} team reviewed ${topics[(i * 7) % topics.length]} work item ${(i * 31) % 997} with the ${topics[(i * 5) % topics.length]} group and wrote down ${i % 11} follow-ups for next ${["week", "month", "quarter"][i % 3]}`;
        });
        await seed(
          app,
          tenant,
          agent,
          mixed.map((content) => ({ content })),
        );
        const dimensions = app.deps.config.EMBEDDING_DIMENSIONS;
        for (const query of [
          "what did the security team review with the pricing group",
          "payments follow-ups for next quarter",
        ]) {
          const vector = (await app.deps.embedder.embed([query], { orgId: tenant.orgId }))
            .vectors[0]!;
          const search = {
            filter: { orgId: tenant.orgId, agentId: agent },
            vector,
            dimensions,
            limit: 10,
            efSearch: 100,
            maxScanTuples: 20000,
            exactMaxRows: 0,
          };
          const { answered, exact } = await withTenant(app.deps.db, tenant.orgId, async (tx) => ({
            answered: await vectorSearch(tx, search), // exactMaxRows 0: always the index shape
            exact: await nearestQuery(tx, search, "exact"),
          }));
          // Tied distances (the short notes repeat word for word) make either tied row right: a row
          // counts when it is at least as near as the exact answer's tenth.
          expect(exact).toHaveLength(10);
          const tenth = exact[9]!.score;
          expect(
            answered.filter((r) => r.score >= tenth - 1e-6).length,
            query,
          ).toBeGreaterThanOrEqual(9);
        }
      } finally {
        await close();
      }
    }, 60_000);
  });
}

describe("which shape answers", () => {
  test("an agent that is most of the graph walks it; a sliver of a large graph, or a handful of rows, is sorted exactly", () => {
    const search = { limit: 10, efSearch: 100 };
    expect(cheaperShape(1000, 1000, search)).toBe("index"); // one agent with 1k memories
    expect(cheaperShape(1000, 1_000_000, search)).toBe("exact"); // 1k memories among 1M
    expect(cheaperShape(60, 60, search)).toBe("exact"); // a handful: sorting them beats any walk
    expect(cheaperShape(2000, 20_000, search)).toBe("index"); // a tenth of the graph
    expect(cheaperShape(0, 0, search)).toBe("exact");
    expect(cheaperShape(1000, 1000, { limit: 100, efSearch: 1000 })).toBe("exact"); // a wide search costs more than the sort
  });

  test("a shape decision is remembered per tenant, agent and dimension until its TTL", () => {
    let now = 0;
    const hints = createVectorShapeHints(1000, () => now);
    hints.put("org_a", "agent", 1536, "index");
    expect(hints.get("org_a", "agent", 1536)).toBe("index");
    expect(hints.get("org_b", "agent", 1536)).toBeUndefined();
    expect(hints.get("org_a", "agent", 384)).toBeUndefined();
    now = 1000;
    expect(hints.get("org_a", "agent", 1536)).toBeUndefined();
  });
});
