// Refine's LLM steps with an LLM configured (a fake OpenAI-compatible server). summarize: the
// summary text comes from the model, asked with the cluster's facts only; the next run reuses it
// without another call; a dry run makes no call; an outage falls back to the extractive text and
// says so in the pass notes. infer: co-mention candidates go to a judge whose JSON verdict names
// the relation or drops the pair.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { BullmqQueue } from "../../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../../src/queue/worker";
import { TEST_QUEUE_PREFIX, testApp, type TestApp } from "../../harness/app";
import { startFakeLlm, type FakeLlm } from "../recall/fake-llm";
import { passOf, refine } from "./helpers";
import { seedGraph } from "./seed-graph";

let t: TestApp;
let worker: RunningWorker;
let fake: FakeLlm;
let down = false;
setDefaultTimeout(60_000);

beforeAll(async () => {
  fake = startFakeLlm((body) => {
    if (down) return new Response("overloaded", { status: 503 });
    const text = body.messages.map((m: { content: string }) => m.content).join("\n");
    if (!text.includes("You judge"))
      return { content: "Ada works at Acme, which is in Berlin, Germany." };
    return {
      content:
        text.includes("First entity: Xavier") || text.includes("First entity: Yusuf")
          ? JSON.stringify({ related: true, relation: "works with", confidence: 0.9 })
          : JSON.stringify({ related: false, relation: "", confidence: 0.2 }),
    };
  });
  t = await testApp({
    REFINE_ENABLED: true,
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-suml`,
    LLM_API_KEY: "sk-test-refine",
    LLM_BASE_URL: fake.url,
    LLM_MODEL: "summary-model",
    LLM_TIMEOUT_MS: 2000,
  });
  worker = await startWorker(t.deps);
});
afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
  fake.stop();
});

const judgeCalls = () =>
  fake.requests.filter((r) => JSON.stringify(r.body).includes("You judge")).length;
const summaries = (orgId: string) =>
  withTenant(
    t.deps.db,
    orgId,
    (tx) =>
      tx`SELECT description, properties->>'method' AS method FROM memos WHERE memo_type = 'SUMMARY' AND retired_at IS NULL`,
  );

test("the LLM writes the summary from the cluster's facts; reuse makes no call; a dry run makes none either", async () => {
  const tenant = await t.tenant("sum-llm");
  await seedGraph(
    t.deps.db,
    tenant.orgId,
    "agent",
    [
      { name: "Ada", type: "PERSON" },
      { name: "Acme", type: "ORG" },
      { name: "Berlin", type: "PLACE" },
      { name: "Germany", type: "PLACE" },
    ],
    [
      { src: "Ada", relation: "WORKS_AT", dst: "Acme" },
      { src: "Acme", relation: "LOCATED_IN", dst: "Berlin" },
      { src: "Berlin", relation: "LOCATED_IN", dst: "Germany" },
    ],
  );
  const dry = await refine(t, tenant.key, { passes: ["summarize"], dry_run: true });
  expect(passOf(dry, "summarize").counts).toMatchObject({ summaries_written: 1 });
  expect(fake.requests.length).toBe(0);

  const first = await refine(t, tenant.key, { passes: ["summarize"] });
  expect(first.state, JSON.stringify(first)).toBe("succeeded");
  expect(fake.requests.length).toBe(1);
  const prompt = fake.requests[0]!.body.messages.map((m: { content: string }) => m.content).join(
    "\n",
  );
  expect(prompt).toContain("Ada works at Acme");
  expect(prompt).toContain("Use only the facts given");
  expect(
    (await summaries(tenant.orgId)).map((s) => ({ description: s.description, method: s.method })),
  ).toEqual([{ description: "Ada works at Acme, which is in Berlin, Germany.", method: "llm" }]);
  expect(first.changes.items[0].detail.method).toBe("llm");

  const second = await refine(t, tenant.key, { passes: ["summarize"] });
  expect(passOf(second, "summarize").counts).toEqual({ clusters: 1, summaries_reused: 1 });
  expect(fake.requests.length).toBe(1);
});

test("an LLM outage falls back to the extractive summary and notes why", async () => {
  const tenant = await t.tenant("sum-llm-down");
  await seedGraph(
    t.deps.db,
    tenant.orgId,
    "agent",
    [
      { name: "Kai", type: "PERSON" },
      { name: "Lab", type: "ORG" },
      { name: "Oslo", type: "PLACE" },
    ],
    [
      { src: "Kai", relation: "WORKS_AT", dst: "Lab" },
      { src: "Lab", relation: "LOCATED_IN", dst: "Oslo" },
    ],
  );
  down = true;
  try {
    const status = await refine(t, tenant.key, { passes: ["summarize"] });
    expect(status.state, JSON.stringify(status)).toBe("succeeded");
    expect(
      passOf(status, "summarize").notes.some((n: string) =>
        n.startsWith("some summaries are extractive"),
      ),
    ).toBe(true);
    const [summary] = await summaries(tenant.orgId);
    expect(summary!.method).toBe("extractive");
    expect(summary!.description).toContain("3 related memos");
  } finally {
    down = false;
  }
});

test("infer: the judge names the relation of a co-mentioned pair, or drops it", async () => {
  const tenant = await t.tenant("infer-judge");
  const memory = async (content: string) =>
    (
      await t.request("POST", "/v1/memories", {
        key: tenant.key,
        body: { agent_id: "agent", content },
      })
    ).body.memory_id as string;
  const [m1, m2, m3, m4] = [
    await memory("Xavier and Yusuf pair on the parser"),
    await memory("Xavier reviewed Yusuf's patch"),
    await memory("Quinn saw Rita at the station"),
    await memory("Quinn and Rita took the same train"),
  ];
  const g = await seedGraph(
    t.deps.db,
    tenant.orgId,
    "agent",
    [
      { name: "Xavier", type: "PERSON", sources: [m1, m2] },
      { name: "Yusuf", type: "PERSON", sources: [m1, m2] },
      { name: "Quinn", type: "PERSON", sources: [m3, m4] },
      { name: "Rita", type: "PERSON", sources: [m3, m4] },
    ],
    [],
  );
  const before = judgeCalls();
  const status = await refine(t, tenant.key, { passes: ["infer"] });
  expect(status.state, JSON.stringify(status)).toBe("succeeded");
  expect(judgeCalls() - before).toBe(2);
  const judgePrompt = fake.requests
    .filter((r) => JSON.stringify(r.body).includes("You judge"))
    .map((r) => JSON.stringify(r.body))
    .join(" ");
  expect(judgePrompt).toContain("Xavier reviewed Yusuf's patch");
  const edges = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`SELECT src_memo_id, dst_memo_id, relation, confidence, origin FROM edges`,
  );
  expect(edges.length).toBe(1);
  expect(edges[0]).toMatchObject({ relation: "WORKS_WITH", origin: "inferred" });
  expect(edges[0]!.confidence).toBeCloseTo(0.9, 5);
  expect([g.memo.Xavier, g.memo.Yusuf]).toContain(edges[0]!.src_memo_id);
  expect(status.changes.items[0].reason).toContain("the LLM judged");
  expect(passOf(status, "infer").counts).toEqual({ edges_inferred_co_mention: 1 });
});
