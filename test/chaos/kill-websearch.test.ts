// A `svc worker` SIGKILLed while a web-search discovery job waits for the provider: a second worker
// retries the discovery, and the batch ends with exactly one child job per result, each page stored
// once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, testApp, show, type TestApp } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";

const prefix = `${TEST_QUEUE_PREFIX}-kill-websearch`;
const TOKEN = "chaos-websearch-token";
let t: TestApp;
let fake: ReturnType<typeof Bun.serve>;
let searches = 0;
let holdSearch = true;

const workers = chaosWorkers({
  SVC_QUEUE_PREFIX: prefix,
  INGEST_ENABLED: "true",
  DISTILL_ENABLED: "false",
  WEBSEARCH_API_KEY: TOKEN,
  INGEST_FETCH_ALLOW_CIDRS: "127.0.0.1/32",
});
/** A worker that asks the fake provider at `base`. */
const spawnWorker = (base: string) => workers.spawn({ WEBSEARCH_BASE_URL: `${base}/res/v1` });

beforeAll(async () => {
  fake = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request): Promise<Response> {
      const url = new URL(request.url);
      const base = `http://127.0.0.1:${url.port}`;
      if (url.pathname === "/res/v1/web/search") {
        searches++;
        // The first worker never gets its answer: it is killed while waiting.
        if (holdSearch) await Bun.sleep(30_000);
        return Response.json({
          web: {
            results: [1, 2, 3].map((i) => ({ title: `Page ${i}`, url: `${base}/pages/${i}` })),
          },
        });
      }
      const page = /^\/pages\/(\d)$/.exec(url.pathname);
      if (page)
        return new Response(`Chaos page ${page[1]} says the tide turns at ${page[1]} o'clock.`, {
          headers: { "content-type": "text/plain" },
        });
      return new Response("not found", { status: 404 });
    },
  });
  t = await testApp({
    SVC_QUEUE_PREFIX: prefix,
    INGEST_ENABLED: true,
    DISTILL_ENABLED: false,
    WEBSEARCH_API_KEY: TOKEN,
    WEBSEARCH_BASE_URL: `http://127.0.0.1:${fake.port}/res/v1`,
  });
});

afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
  fake.stop(true);
});

test("kill -9 during discovery, then a second worker: one child per result, each page stored once", async () => {
  const tenant = await t.tenant("kill-websearch");
  const base = `http://127.0.0.1:${fake.port}`;
  const first = spawnWorker(base);
  const r = await t.request("POST", "/v1/ingest/search", {
    key: tenant.key,
    body: { agent_id: "chaos", query: "tides", max_results: 3 },
  });
  expect(r.status, show(r)).toBe(202);
  await eventually(async () => searches >= 1, "the first worker to ask the provider", 60_000);
  first.kill("SIGKILL");
  await first.exited;
  holdSearch = false;

  spawnWorker(base);
  const batch = await eventually(
    async () => {
      const view = await t.request("GET", `/v1/ingest/search/${r.body.batch_id}`, {
        key: tenant.key,
      });
      return view.body?.state === "completed" || view.body?.state === "failed" ? view.body : null;
    },
    "the second worker to finish the batch",
    120_000,
  );
  expect(batch.state, JSON.stringify(batch)).toBe("completed");
  expect(searches).toBe(2);
  expect(batch.results.map((c: any) => [c.rank, c.url, c.state])).toEqual(
    [1, 2, 3].map((i) => [i, `${base}/pages/${i}`, "succeeded"]),
  );

  const [jobs] = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) =>
      tx`SELECT count(*)::int AS n FROM jobs WHERE batch_id = ${r.body.batch_id} AND payload #>> '{source,kind}' = 'url'`,
  );
  expect(jobs!.n).toBe(3);
  const memories = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`SELECT content FROM memories WHERE agent_id = 'chaos' ORDER BY content`,
  );
  expect(memories.map((m) => m.content)).toEqual(
    [1, 2, 3].map((i) => `Chaos page ${i} says the tide turns at ${i} o'clock.`),
  );
}, 240_000);
