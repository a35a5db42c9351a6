// GRAPH ranks paths by the question's words against their facts (issue 22 item 5), on a graph
// distilled by the real local extractor through HTTP, in both database modes: of Alice's many
// facts, the path that answers "where is her employer headquartered" comes first, not her dog,
// mentor or manager.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { TEST_QUEUE_PREFIX, testApp, type Tenant, type TestApp } from "../harness/app";
import { embeddedApp } from "../harness/embedded-app";
import { distillOverHttp, storeOverHttp, type Answer, type Caller } from "./done-when";

const show = (r: Answer) => `${r.status} ${r.text.slice(0, 600)}`;

const AGENT = "graph-ranking";
const CONFIG = { DISTILL_ENABLED: true, SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-graph-ranking` };
const HEADQUARTERS = "Acme Robotics is headquartered in Rotterdam.";
const MEMORIES = [
  "Alice Novak works at Acme Robotics.",
  HEADQUARTERS,
  "Alice Novak owns a dog named Biscuit.",
  "Alice Novak's mentor is Carla Mendes.",
  "Alice Novak's manager is Tom Berg.",
  "Alice Novak knows Peter Holm.",
  "Alice Novak lives in Utrecht.",
  "Carla Mendes works at Delft University.",
  "Tom Berg lives in Leiden.",
  "Peter Holm uses Postgres.",
];

type Mode = {
  name: string;
  open(): Promise<{ app: TestApp; tenant: Tenant; close(): Promise<void> }>;
};
const modes: Mode[] = [
  {
    name: "PostgreSQL",
    async open() {
      const app = await testApp(CONFIG);
      return {
        app,
        tenant: await app.tenant("graph-ranking"),
        close: async () => {
          await (app.deps.queue as BullmqQueue).queue.obliterate({ force: true });
          await app.close();
        },
      };
    },
  },
  {
    name: "PGlite (embedded)",
    async open() {
      const e = await embeddedApp("graph-ranking", CONFIG);
      return { app: e.app, tenant: await e.tenant("graph-ranking"), close: () => e.close() };
    },
  },
];

for (const mode of modes) {
  describe(mode.name, () => {
    let app: TestApp;
    let tenant: Tenant;
    let close: () => Promise<void>;
    let worker: RunningWorker;
    let ids: string[];
    const call: Caller = (method, path, body) =>
      app.request(method, path, { key: tenant.key, body });

    beforeAll(async () => {
      ({ app, tenant, close } = await mode.open());
      worker = await startWorker(app.deps);
      ids = await storeOverHttp(call, AGENT, MEMORIES);
      const job = await distillOverHttp(call, AGENT, ids);
      expect(job.state).toBe("succeeded");
    }, 90_000);
    afterAll(async () => {
      await worker.close();
      await close();
    });

    test("the headquarters of Alice's employer is in GRAPH's top 5, reached through her employer", async () => {
      const res = await call("POST", "/v1/memories/recall", {
        agent_id: AGENT,
        strategy: "GRAPH",
        top_k: 5,
        query: "In which city is Alice Novak's employer headquartered?",
      });
      expect(res.status, show(res)).toBe(200);
      const hq = ids[MEMORIES.indexOf(HEADQUARTERS)]!;
      const hit = res.body.results.find((r: { memory_id: string }) => r.memory_id === hq);
      expect(hit, show(res)).toBeDefined();
      expect(hit.graph.path.hops).toBe(2);
    }, 30_000);

    test("a question about her dog still ranks the dog first", async () => {
      const res = await call("POST", "/v1/memories/recall", {
        agent_id: AGENT,
        strategy: "GRAPH",
        top_k: 5,
        query: "What is the name of Alice Novak's dog?",
      });
      expect(res.status, show(res)).toBe(200);
      expect(res.body.results[0]?.memory_id, show(res)).toBe(ids[2]);
    }, 30_000);
  });
}
