// Distill with the LLM extractor against a fake OpenAI-compatible server (real HTTP), through POST
// /v1/distill and a real worker: one call per chunk, <think>-prefixed and fenced JSON accepted,
// tokens metered into usage; an unusable answer is retried once then that chunk falls back to the
// local rules; a spent budget refuses the call and the memories are still distilled locally.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { BullmqQueue } from "../../../src/queue/bullmq-queue";
import { startWorker, type RunningWorker } from "../../../src/queue/worker";
import { distillOverHttp, storeOverHttp, type Caller } from "../../graph/done-when";
import { edgesOf } from "../../graph/helpers";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../../harness/app";
import { startFakeLlm, type FakeLlm } from "../../http/recall/fake-llm";

let fake: FakeLlm;
let t: TestApp;
let worker: RunningWorker;
let mode: "good" | "garbage" = "good";

/**
 * Answers "[mN] (dated …) X works at Y." lines like a model would: fenced JSON after a reasoning
 * block.
 */
function answer(body: any) {
  const prompt: string = body.messages.at(-1).content;
  const lines = [
    ...prompt
      .split("Now extract from these memories:")[1]!
      .matchAll(/^\[(m\d+)\] \(dated [^)]*\) (.*)$/gm),
  ];
  if (mode === "garbage") return { content: "Sorry, I cannot help with that.", tokens: 40 };
  const memories = lines.map(([, id, text]) => {
    const [, subject, object] = /^(.+?) works at (.+?)\.$/.exec(text!) ?? [];
    return {
      id,
      entities: subject
        ? [
            { name: subject, type: "PERSON" },
            { name: object!, type: "ORG" },
          ]
        : [],
      relations: subject
        ? [
            {
              subject,
              relation: "works at",
              object: object!,
              fact: text!,
              valid_at: "2024-02",
              confidence: 0.9,
            },
          ]
        : [],
    };
  });
  return {
    content: `<think>The user wants triples.</think>\n\`\`\`json\n${JSON.stringify({ memories })}\n\`\`\``,
    tokens: 100,
  };
}

beforeAll(async () => {
  fake = startFakeLlm(answer);
  t = await testApp({
    LLM_API_KEY: "sk-test-extract",
    LLM_BASE_URL: fake.url,
    LLM_MODEL: "extract-model",
    LLM_TIMEOUT_MS: 5000,
    DISTILL_ENABLED: true,
    EXTRACT_LLM_CHUNK_MEMORIES: 2,
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-llmx`,
  });
  worker = await startWorker(t.deps);
});
afterAll(async () => {
  await worker.close();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
  fake.stop();
});

const caller =
  (tenant: Tenant): Caller =>
  (method, path, body) =>
    t.request(method, path, { key: tenant.key, body });
const extractorsOf = (tenant: Tenant, agent: string) =>
  withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx<{ extractor: string }[]>`
  SELECT DISTINCT d.extractor FROM distilled_memories d JOIN memories m USING (memory_id) WHERE m.agent_id = ${agent} ORDER BY 1`,
  );
const extractionCalls = () =>
  fake.requests.filter(
    (r) =>
      r.path === "/v1/chat/completions" &&
      JSON.stringify(r.body).includes("Now extract from these memories"),
  );

test("one call per chunk; fenced and <think>-prefixed answers are read; tokens are metered", async () => {
  mode = "good";
  const tenant = await t.tenant("llm-extract");
  const before = extractionCalls().length;
  const usage0 = (await t.request("GET", "/v1/usage", { key: tenant.key })).body.today;
  const ids = await storeOverHttp(caller(tenant), "llm", [
    "Alice works at Acme.",
    "Bob works at Initech.",
    "Carol works at Globex.",
  ]);
  const job = await distillOverHttp(caller(tenant), "llm", ids);
  expect(job, JSON.stringify(job)).toMatchObject({
    state: "succeeded",
    extractor: "llm:extract-model",
    counts: { edges_created: 3 },
  });
  expect(extractionCalls().length - before).toBe(2); // chunks of 2 memories
  expect(extractionCalls().at(-1)!.authorization).toBe("Bearer sk-test-extract");
  const edges = await edgesOf(t, tenant, "llm");
  expect(
    edges
      .map((e) => `${e.src} ${e.relation} ${e.dst} ${e.valid_at?.toISOString().slice(0, 10)}`)
      .sort(),
  ).toEqual([
    "Alice WORKS_AT Acme 2024-02-01",
    "Bob WORKS_AT Initech 2024-02-01",
    "Carol WORKS_AT Globex 2024-02-01",
  ]);
  expect((await extractorsOf(tenant, "llm")).map((r) => r.extractor)).toEqual([
    "llm:extract-model",
  ]);
  const usage = (await t.request("GET", "/v1/usage", { key: tenant.key })).body.today;
  expect(usage.llm_calls - usage0.llm_calls).toBe(2);
  expect(usage.tokens - usage0.tokens).toBeGreaterThanOrEqual(200);
}, 60_000);

test("an unusable answer goes back once, then that chunk is extracted by the local rules, with a warning", async () => {
  mode = "garbage";
  const tenant = await t.tenant("llm-garbage");
  const before = extractionCalls().length;
  const ids = await storeOverHttp(caller(tenant), "llm", ["Dana works at Hooli."]);
  const job = await distillOverHttp(caller(tenant), "llm", ids);
  expect(job.state).toBe("succeeded");
  expect(extractionCalls().length - before).toBe(2);
  expect(extractionCalls().at(-1)!.body.messages.at(-1).content).toContain(
    "Your previous answer could not be used (the answer is not valid JSON)",
  );
  expect(job.warnings.join("\n")).toContain("unusable twice");
  expect((await edgesOf(t, tenant, "llm")).map((e) => `${e.src} ${e.relation} ${e.dst}`)).toEqual([
    "Dana WORKS_AT Hooli",
  ]);
  expect((await extractorsOf(tenant, "llm")).map((r) => r.extractor)).toEqual([
    "local-fallback-v1",
  ]);
}, 60_000);

test("a spent token budget refuses the call: no request reaches the provider, the memories are distilled locally", async () => {
  mode = "good";
  const tenant = await t.tenant("llm-budget");
  const ids = await storeOverHttp(caller(tenant), "llm", ["Erin works at Umbrella."]); // storing embeds: spend first
  const put = await t.request("PUT", "/v1/tenants/me/budgets", {
    key: tenant.key,
    body: { daily_tokens: 0 },
  });
  expect(put.status, show(put)).toBe(200);
  const before = extractionCalls().length;
  const job = await distillOverHttp(caller(tenant), "llm", ids);
  expect(job.state).toBe("succeeded");
  expect(extractionCalls().length).toBe(before);
  expect(job.warnings.join("\n")).toContain("budget");
  expect((await edgesOf(t, tenant, "llm")).map((e) => `${e.src} ${e.relation} ${e.dst}`)).toEqual([
    "Erin WORKS_AT Umbrella",
  ]);
  expect((await extractorsOf(tenant, "llm")).map((r) => r.extractor)).toEqual([
    "local-fallback-v1",
  ]);
}, 60_000);
