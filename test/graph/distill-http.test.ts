// POST/GET /v1/distill through HTTP with a real worker (BullMQ on Valkey) and the real local
// extractor: validation, 202 + polling, idempotent reruns, job kinds and tenants kept apart,
// relation overrides, and the whole "done when" scenario on PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertJob } from "../../src/data/queries/jobs/jobs";
import { withTenant } from "../../src/data/with-tenant";
import { newId } from "../../src/lib/ids";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { distillOverHttp, doneWhen, storeOverHttp, type Caller } from "./done-when";

let t: TestApp;
let worker: RunningWorker;
let a: Tenant;
let b: Tenant;

const caller =
  (tenant: Tenant): Caller =>
  (method, path, body) =>
    t.request(method, path, { key: tenant.key, body });

beforeAll(async () => {
  t = await testApp({
    DISTILL_ENABLED: true,
    DISTILL_MAX_MEMORY_IDS: 50,
    DISTILL_BATCH_SIZE: 3,
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-distill`,
  });
  worker = await startWorker(t.deps);
  a = await t.tenant("distill-a");
  b = await t.tenant("distill-b");
});
afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

describe("POST /v1/distill and GET /v1/distill/{job_id}", () => {
  test("bad requests are 422 problems naming the field, and create nothing", async () => {
    for (const [body, field] of [
      [{ agent_id: "x", memory_ids: [] }, "memory_ids"],
      [
        { agent_id: "x", memory_ids: Array.from({ length: 51 }, (_, i) => `mem_${i}`) },
        "memory_ids",
      ],
      [{ agent_id: "x\u0000", memory_ids: ["mem_1"] }, "agent_id"],
      [{ agent_id: "x", memory_ids: ["mem_\u0000"] }, "memory_ids"],
      [{ memory_ids: ["mem_1"] }, "agent_id"],
      [{ agent_id: "x", memory_ids: ["mem_1"], extra: 1 }, "extra"],
    ] as const) {
      const res = await t.request("POST", "/v1/distill", { key: a.key, body });
      expect(res.status, show(res)).toBe(422);
      expect(res.text).toContain(field);
    }
  });

  test("202, then a job that reports counts, skipped ids and progress; a rerun is idempotent", async () => {
    const ids = await storeOverHttp(caller(a), "http", [
      "Alice works at Acme.",
      "Bob knows Alice.",
      "Bob uses Postgres.",
      "Alice lives in Munich.",
    ]);
    const [other] = await storeOverHttp(caller(a), "someone-else", ["Carol uses Redis."]);
    const job = await distillOverHttp(caller(a), "http", [...ids, ids[0]!, other!, "mem_nope"]);
    expect(job).toMatchObject({
      state: "succeeded",
      agent_id: "http",
      extractor: "local-v1",
      progress: { done: 4, total: 4 },
      memories: {
        requested: 6,
        distilled: 4,
        already_distilled: 0,
        not_found: ["mem_nope"],
        other_agent: [other],
      },
      counts: { memos_created: 5, edges_created: 4 },
      errors: [],
      error: null,
    });
    const again = await distillOverHttp(caller(a), "http", ids);
    expect(again).toMatchObject({
      state: "succeeded",
      memories: { distilled: 0, already_distilled: 4 },
      counts: { memos_created: 0, edges_created: 0, edges_reinforced: 0 },
    });
    expect(
      (await t.request("GET", "/v1/graph/data?agent_id=http", { key: a.key })).body.edges.length,
    ).toBe(4);
  }, 60_000);

  test("another tenant's job, a malformed id and another kind's job are 404", async () => {
    const job = await distillOverHttp(
      caller(a),
      "http",
      await storeOverHttp(caller(a), "http", ["Dave mentors Erin."]),
    );
    expect((await t.request("GET", `/v1/distill/${job.job_id}`, { key: b.key })).status).toBe(404);
    expect((await t.request("GET", "/v1/distill/job_nope", { key: a.key })).status).toBe(404);
    const ingestJob = newId("job");
    await withTenant(t.deps.db, a.orgId, (tx) => insertJob(tx, a.orgId, ingestJob, "ingest", {}));
    expect((await t.request("GET", `/v1/distill/${ingestJob}`, { key: a.key })).status).toBe(404);
  }, 60_000);

  test("a tenant override makes a relation functional for later distills; reset returns to the default", async () => {
    const put = await t.request("PUT", "/v1/graph/relations", {
      key: a.key,
      body: { relation: "USES", functional: true },
    });
    expect(put.status, show(put)).toBe(200);
    expect(put.body).toMatchObject({ relation: "USES", functional: true, source: "tenant" });
    const [first, second] = await storeOverHttp(caller(a), "tools", [
      "Bob uses Postgres.",
      "Bob uses MySQL.",
    ]);
    await distillOverHttp(caller(a), "tools", [first!]);
    const job = await distillOverHttp(caller(a), "tools", [second!]);
    expect(job.counts.edges_superseded).toBe(1);
    const list = await t.request("GET", "/v1/graph/relations", { key: b.key });
    expect(
      list.body.relations.find((r: { relation: string }) => r.relation === "USES"),
    ).toMatchObject({ functional: false, source: "default" });
    for (const [body, field] of [
      [{ relation: "uses", functional: true }, "relation"],
      [{ relation: "SUMMARIZES", functional: true }, "relation"],
      [{ relation: "USES" }, "functional"],
      [{ relation: "USES", reset: true, functional: true }, "reset"],
    ] as const) {
      const res = await t.request("PUT", "/v1/graph/relations", { key: a.key, body });
      expect(res.status, show(res)).toBe(422);
      expect(res.text).toContain(field);
    }
    const reset = await t.request("PUT", "/v1/graph/relations", {
      key: a.key,
      body: { relation: "USES", reset: true },
    });
    expect(reset.body).toMatchObject({ relation: "USES", functional: false, source: "default" });
  }, 60_000);

  test("done when: distill → graph/data → GRAPH, TRIPLET, TRACE → forget → another tenant (PostgreSQL, local extractor)", async () => {
    await doneWhen(caller(a), caller(b), "done-when");
  }, 120_000);
});
