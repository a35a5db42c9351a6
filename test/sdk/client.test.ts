// @svc/sdk against the real app over real HTTP: round trip, streaming, typed errors, retry, jobs,
// audit chain.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, type Tenant } from "../harness/app";
import {
  NotFoundError,
  RateLimitedError,
  SvcClient,
  SvcError,
  TimeoutError,
  ValidationError,
  type RecallStreamEvent,
} from "../../sdk/src/index";
import { ALL_GATES, serve, type Served } from "./server";

const AGENT = "sdk-agent";
let s: Served;
let worker: RunningWorker;
let a: Tenant;
let svc: SvcClient;

beforeAll(async () => {
  s = await serve({ ...ALL_GATES, SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-sdk` });
  worker = await startWorker(s.t.deps);
  a = await s.t.tenant("sdk");
  svc = new SvcClient({ baseUrl: s.url, apiKey: a.key });
});
afterAll(async () => {
  await worker.close();
  if (s.t.deps.queue instanceof BullmqQueue) await s.t.deps.queue.queue.obliterate({ force: true });
  await s.stop();
});

describe("memories", () => {
  test("store → get → update → history → recall → forget round trip", async () => {
    const stored = await svc.memories.store({
      agent_id: AGENT,
      content: "the kettle lives in the blue cupboard",
    });
    expect(stored.memory_id).toStartWith("mem_");
    expect((await svc.memories.get(stored.memory_id)).content).toBe(
      "the kettle lives in the blue cupboard",
    );
    const updated = await svc.memories.update(stored.memory_id, {
      content: "the kettle lives in the green cupboard",
    });
    expect(updated.version).toBe(2);
    const history = await svc.memories.history(stored.memory_id);
    expect(JSON.stringify(history)).toContain("blue cupboard");
    const recalled = await svc.memories.recall({
      agent_id: AGENT,
      query: "kettle cupboard",
      strategy: "LEXICAL",
    });
    expect(recalled.results.map((r) => r.memory_id)).toContain(stored.memory_id);
    const forgotten = await svc.memories.forget({ memory_id: stored.memory_id });
    expect(forgotten.forgotten).toEqual([stored.memory_id]);
    const after = await svc.memories.recall({
      agent_id: AGENT,
      query: "kettle cupboard",
      strategy: "LEXICAL",
    });
    expect(after.results.map((r) => r.memory_id)).not.toContain(stored.memory_id);
    const gone = await svc.memories.get(stored.memory_id).catch((e) => e);
    expect(gone).toBeInstanceOf(SvcError);
    expect([404, 410]).toContain(gone.status);
  });

  test("batch stores several memories", async () => {
    const batch = await svc.memories.batch({
      memories: [
        { agent_id: AGENT, content: "batch one" },
        { agent_id: AGENT, content: "batch two" },
      ],
    });
    expect(JSON.stringify(batch).match(/mem_/g)?.length).toBeGreaterThanOrEqual(2);
  });

  test("recallStream yields each result, then the summary, matching the JSON recall", async () => {
    for (const content of ["alpha river stone", "alpha river", "alpha"])
      await svc.memories.store({ agent_id: "sdk-stream", content });
    const events: RecallStreamEvent[] = [];
    for await (const event of svc.memories.recallStream({
      agent_id: "sdk-stream",
      query: "alpha",
      strategy: "LEXICAL",
      top_k: 5,
    }))
      events.push(event);
    const json = await svc.memories.recall({
      agent_id: "sdk-stream",
      query: "alpha",
      strategy: "LEXICAL",
      top_k: 5,
    });
    expect(events.map((e) => e.type)).toEqual(["result", "result", "result", "summary"]);
    expect(events.flatMap((e) => (e.type === "result" ? [e.result.memory_id] : []))).toEqual(
      json.results.map((r) => r.memory_id),
    );
    expect(events[0]).toMatchObject({ type: "result", result: { rank: 1 } });
    expect(events[3]).toMatchObject({
      type: "summary",
      summary: { count: 3, strategy: "LEXICAL" },
    });
  });

  test("breaking out of recallStream early ends the iteration cleanly", async () => {
    let seen = 0;
    for await (const event of svc.memories.recallStream({
      agent_id: "sdk-stream",
      query: "alpha",
      strategy: "LEXICAL",
    })) {
      seen++;
      if (event.type === "result") break;
    }
    expect(seen).toBe(1);
  });

  test("a stream refused before it opens throws the typed problem", async () => {
    const error = await (async () => {
      for await (const _ of svc.memories.recallStream({ agent_id: AGENT, query: "x", top_k: 0 })) {
        /* none */
      }
    })().catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.field).toBe("/top_k");
  });
});

describe("listing", () => {
  test("memories.list walks every page with metadata filters; agents.list counts them", async () => {
    const agent = "sdk-list";
    for (let i = 0; i < 5; i++) {
      await svc.memories.store({
        agent_id: agent,
        content: `listed ${i}`,
        metadata: { parity: i % 2, user: "u1" },
      });
    }
    const seen: string[] = [];
    for await (const m of svc.memories.list({ agent_id: agent, limit: 2 })) seen.push(m.content);
    expect(seen).toEqual(["listed 4", "listed 3", "listed 2", "listed 1", "listed 0"]);
    const even = await svc.memories.page({
      agent_id: agent,
      metadata: { parity: 0, user: "u1" },
      order: "asc",
    });
    expect(even.items.map((m) => m.content)).toEqual(["listed 0", "listed 2", "listed 4"]);
    const agents = [];
    for await (const row of svc.agents.list()) agents.push(row);
    expect(agents.find((row) => row.agent_id === agent)).toMatchObject({
      memories: 5,
      forgotten: 0,
      has_graph: false,
    });
    const error = await svc.memories
      .page({ agent_id: agent, order: "sideways" as "asc" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
  });
});

describe("typed errors", () => {
  test("422 is a ValidationError naming the field", async () => {
    const error = await svc.memories.store({ agent_id: AGENT, content: "" }).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.status).toBe(422);
    expect(error.slug).toBe("validation-failed");
    expect(error.field).toBe("/content");
    expect(error.title).toBe("Validation Failed");
  });

  test("a gated-off route is a NotFoundError", async () => {
    const plain = await serve();
    try {
      const other = new SvcClient({
        baseUrl: plain.url,
        apiKey: (await plain.t.tenant("gated")).key,
      });
      const error = await other.forge
        .distill({ agent_id: AGENT, memory_ids: ["mem_00000000000000000000000000"] })
        .catch((e) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  test("an unknown memory is a NotFoundError with the problem's detail", async () => {
    const error = await svc.memories.get(`mem_${"0".repeat(26)}`).catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(404);
    expect(error.slug).toBe("not-found");
    expect(error.detail.length).toBeGreaterThan(0);
  });

  test("a timeout aborts the request with TimeoutError; an aborted signal rejects with its reason", async () => {
    // A listener that never answers: the client's own timer must end the wait. (Pointing a 1 ms
    // timeout at the app instead cancels a recall mid-query, which surfaces as an unhandled
    // rejection in the app; reported.)
    const silent = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Promise<Response>(() => {}),
    });
    try {
      const slow = new SvcClient({
        baseUrl: `http://127.0.0.1:${silent.port}`,
        apiKey: a.key,
        timeoutMs: 50,
      });
      const timedOut = await slow.memories
        .recall({ agent_id: AGENT, query: "anything" })
        .catch((e) => e);
      expect(timedOut).toBeInstanceOf(TimeoutError);
    } finally {
      silent.stop(true);
    }
    const controller = new AbortController();
    controller.abort(new Error("caller gave up"));
    const aborted = await svc.memories
      .recall({ agent_id: AGENT, query: "x" }, { signal: controller.signal })
      .catch((e) => e);
    expect(aborted.message).toBe("caller gave up");
  });
});

describe("rate limit", () => {
  let limited: Served;
  let key: string;
  beforeAll(async () => {
    limited = await serve({
      RATE_LIMIT_ENABLED: true,
      RATE_LIMIT_REQUESTS: 1,
      RATE_LIMIT_WINDOW: 1,
      RATE_LIMIT_BURST: 1,
    });
    key = (await limited.t.tenant("limited")).key;
  });
  afterAll(() => limited.stop());

  test("without retries, the second request is a RateLimitedError with retryAfter", async () => {
    const client = new SvcClient({ baseUrl: limited.url, apiKey: key, maxRetries: 0 });
    await client.usage.get();
    const error = await client.usage.get().catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(error.retryAfter).toBeLessThanOrEqual(1);
  });

  test("with retries, the client waits Retry-After and succeeds", async () => {
    await Bun.sleep(1100);
    const client = new SvcClient({ baseUrl: limited.url, apiKey: key, maxRetries: 3 });
    await client.usage.get();
    const started = Date.now();
    const usage = await client.usage.get();
    expect(usage).toHaveProperty("today");
    expect(Date.now() - started).toBeGreaterThanOrEqual(500); // it did wait for the bucket, not fail
  });

  test("a Retry-After above maxRetryDelayMs is thrown at once", async () => {
    await Bun.sleep(1100);
    const client = new SvcClient({
      baseUrl: limited.url,
      apiKey: key,
      maxRetries: 3,
      maxRetryDelayMs: 10,
    });
    await client.usage.get();
    expect(await client.usage.get().catch((e) => e)).toBeInstanceOf(RateLimitedError);
  });
});

describe("forge jobs", () => {
  test("ingest text, then wait() polls until the job succeeded", async () => {
    const job = await svc.forge.ingest({
      agent_id: "sdk-ingest",
      text: "Ada Lovelace wrote the first program. She worked with Charles Babbage.",
    });
    expect(job.accepted.state).toBe("queued");
    const done = await job.wait({ intervalMs: 100, waitTimeoutMs: 60_000 });
    expect(done.state).toBe("succeeded");
    expect(done.memory_ids.length).toBeGreaterThan(0);
  });

  test("store → distill → wait() succeeds with counts, and the graph then holds the memos", async () => {
    const agent = `sdk-distill-${Date.now()}`;
    const stored = await svc.memories.batch({
      memories: [
        { agent_id: agent, content: "Grace Hopper works at the Navy Research Lab." },
        { agent_id: agent, content: "Grace Hopper lives in Arlington." },
      ],
    });
    const ids = JSON.stringify(stored).match(/mem_[0-9A-Za-z]+/g)!;
    const job = await svc.forge.distill({ agent_id: agent, memory_ids: [...new Set(ids)] });
    expect(job.accepted.job_id).toBe(job.id);
    const done = await job.wait({ intervalMs: 100, waitTimeoutMs: 60_000 });
    expect(done.state).toBe("succeeded");
    expect(done.memories?.distilled).toBe(2);
    expect(done.counts.memos_created).toBeGreaterThan(0);
    expect(done.counts.edges_created).toBeGreaterThan(0);
    const graph = await svc.graph.data({ agent_id: agent });
    expect(graph.nodes.length).toBe(Number(done.counts.memos_created));
    expect(graph.nodes.map((n) => n.name.toLowerCase())).toContain("grace hopper");
    expect(graph.edges.length).toBeGreaterThan(0);
  });

  test("refine (dedupe, dry run), then wait() until the job succeeded; feedback on a memory", async () => {
    for (const content of ["the office closes at six", "the office closes at six"])
      await svc.memories.store({ agent_id: "sdk-refine", content });
    const job = await svc.forge.refine({
      agent_id: "sdk-refine",
      passes: ["dedupe"],
      dry_run: true,
    });
    const done = await job.wait({ intervalMs: 100, waitTimeoutMs: 60_000 });
    expect(done.state).toBe("succeeded");
    expect(done.dry_run).toBe(true);
    const recalled = await svc.memories.recall({
      agent_id: "sdk-refine",
      query: "office",
      strategy: "LEXICAL",
    });
    const feedback = await svc.forge.feedback({
      memory_id: recalled.results[0]!.memory_id,
      signal: 1,
      note: "useful",
    });
    expect(JSON.stringify(feedback)).toContain(recalled.results[0]!.memory_id);
  });

  test("datasets create, get, list, delete", async () => {
    const created = await svc.forge.datasets.create({ name: `sdk-${Date.now()}` });
    expect((await svc.forge.datasets.get(created.dataset_id)).dataset_id).toBe(created.dataset_id);
    expect(JSON.stringify(await svc.forge.datasets.list())).toContain(created.dataset_id);
    await svc.forge.datasets.delete(created.dataset_id);
  });
});

describe("other namespaces", () => {
  test("sessions, conversations, keys, budgets, admin", async () => {
    const session = await svc.sessions.start({ agent_id: AGENT });
    expect((await svc.sessions.end(session.session_id)).state).toBe("ended");
    const conversation = await svc.conversations.open({ agent_id: AGENT });
    await svc.conversations.appendTurn(conversation.conversation_id, {
      role: "user",
      content: "hello",
    });
    expect(JSON.stringify(await svc.conversations.turns(conversation.conversation_id))).toContain(
      "hello",
    );
    const key = await svc.keys.create({ name: "sdk-second" });
    expect(JSON.stringify(await svc.keys.list())).toContain(key.key_id);
    await svc.keys.revoke(key.key_id);
    const budgets = await svc.budgets.get();
    expect(budgets.org_id).toBe(a.orgId);
    const admin = new SvcClient({ baseUrl: s.url, apiKey: ALL_GATES.SUPERADMIN_API_KEY });
    expect((await admin.admin.budgets.get(a.orgId)).org_id).toBe(a.orgId);
  });

  test("audit iterates every page and verifyChain() recomputes the chain", async () => {
    const t = s.t;
    const { drainAudit } = await import("../../src/domain/audit/drain");
    await drainAudit(t.deps.db, { orgId: a.orgId });
    const rows = [];
    for await (const row of svc.audit.list({ limit: 2 })) rows.push(row);
    expect(rows.length).toBeGreaterThan(4); // several pages of 2
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
    const verdict = await svc.audit.verifyChain();
    expect(verdict).toMatchObject({ ok: true, rows: rows.length });
    const tampered = (await import("../../sdk/src/index")).verifyRows(
      a.orgId,
      (async function* () {
        yield* rows.slice(0, 2);
        yield { ...rows[2]!, detail: { forged: true } };
      })(),
    );
    expect(await tampered).toMatchObject({ ok: false, firstBrokenSeq: 3 });
  });
});
