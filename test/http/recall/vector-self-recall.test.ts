// VECTOR finds a memory by its own text (issue 22 item 4), in both database modes: one agent of
// 1,500 short turns among other agents' memories, through the batch route and the vector backlog's
// graphing as the worker runs it, then 40 of its turns recalled by their own content must each come
// back in the top 10.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { graphBacklog } from "../../../src/domain/memories/vector-backlog";
import { shortTurns } from "../../../bench/lib/short-turns";
import { rng } from "../../../bench/lib/corpus";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { createMigratedDatabase, dropDatabase } from "../../harness/databases";
import { embeddedApp } from "../../harness/embedded-app";
import { recall } from "./seed";

const AGENT = "self-recall";
const SIZE = 1_500;
const OTHERS = 1;
const QUERIES = 40;

type Mode = {
  name: string;
  open(): Promise<{ app: TestApp; tenant: Tenant; close(): Promise<void> }>;
};
const modes: Mode[] = [
  {
    // A database of its own: the share of the graph this agent holds is what the test sets, not
    // what other files left behind.
    name: "PostgreSQL, a database of its own",
    async open() {
      const name = `svc_t_${process.pid}_selfrecall_${Date.now().toString(36)}`;
      const app = await testApp({}, await createMigratedDatabase(name));
      return {
        app,
        tenant: await app.tenant("self-recall"),
        close: async () => {
          await app.close();
          await dropDatabase(name);
        },
      };
    },
  },
  {
    name: "PGlite (embedded)",
    async open() {
      const e = await embeddedApp("self-recall");
      return { app: e.app, tenant: await e.tenant("self-recall"), close: () => e.close() };
    },
  },
];

for (const mode of modes) {
  describe(mode.name, () => {
    let app: TestApp;
    let tenant: Tenant;
    let close: () => Promise<void>;
    const contents = shortTurns(SIZE, 7);
    let ids: string[] = [];

    const store = async (agent: string, turns: string[]): Promise<string[]> => {
      const stored: string[] = [];
      for (let i = 0; i < turns.length; i += 500) {
        const res = await app.request("POST", "/v1/memories/batch", {
          key: tenant.key,
          body: {
            memories: turns.slice(i, i + 500).map((content) => ({ agent_id: agent, content })),
          },
        });
        expect(res.status, show(res)).toBe(201);
        stored.push(...res.body.memories.map((m: { memory_id: string }) => m.memory_id));
      }
      return stored;
    };

    beforeAll(async () => {
      ({ app, tenant, close } = await mode.open());
      for (let o = 0; o < OTHERS; o++) await store(`other-${o}`, shortTurns(SIZE, 100 + o));
      ids = await store(AGENT, contents);
      for (;;) if ((await graphBacklog(app.deps.db, tenant.orgId, 1000, 10)).remaining === 0) break;
    }, 600_000);
    afterAll(() => close());

    test("40 turns recalled by their own text are each in the top 10", async () => {
      const random = rng(11);
      const missed: string[] = [];
      for (let q = 0; q < QUERIES; q++) {
        const k = Math.floor(random() * SIZE);
        const res = await recall(app, tenant.key, {
          agent_id: AGENT,
          query: contents[k],
          strategy: "VECTOR",
          top_k: 10,
        });
        expect(res.status, show(res)).toBe(200);
        if (!res.body.results.some((r: { memory_id: string }) => r.memory_id === ids[k]))
          missed.push(contents[k]!);
      }
      expect(missed).toEqual([]);
    }, 120_000);
  });
}
