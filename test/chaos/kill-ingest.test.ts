// A `svc worker` SIGKILLed in the middle of an ingest job: a second worker resumes the document
// after the chunks already committed, and the end state equals one uninterrupted run: every chunk
// stored exactly once, in order, with no orphan memories from the batch that was cut off.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { chunkProse } from "../../src/domain/ingest/formats/chunk/prose";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, testApp, show, type TestApp } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { filler } from "../http/ingest/fixtures";
import { eventually } from "../queue/wait";

const prefix = `${TEST_QUEUE_PREFIX}-kill-ingest`;
const CHUNK = 200;
const settings = {
  INGEST_ENABLED: "true",
  INGEST_CHUNK_CHARS: String(CHUNK),
  INGEST_CHUNK_OVERLAP_CHARS: "0",
  DISTILL_ENABLED: "false",
};
let t: TestApp;

const workers = chaosWorkers({ SVC_QUEUE_PREFIX: prefix, ...settings });

beforeAll(async () => {
  t = await testApp({
    SVC_QUEUE_PREFIX: prefix,
    INGEST_ENABLED: true,
    INGEST_CHUNK_CHARS: CHUNK,
    INGEST_CHUNK_OVERLAP_CHARS: 0,
    DISTILL_ENABLED: false,
  });
});

afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
});

test("kill -9 mid-document, then a second worker: every chunk exactly once, in order", async () => {
  const tenant = await t.tenant("kill-ingest");
  const sentences = filler(6000, 13);
  const text = Array.from({ length: 1000 }, (_, p) =>
    sentences.slice(p * 6, p * 6 + 6).join(" "),
  ).join("\n\n");
  const expected = chunkProse(text, {
    target: CHUNK,
    overlap: 0,
    hardMax: t.deps.config.MEMORY_CONTENT_MAX_CHARS,
  }).map((c) => c.text);
  expect(expected.length).toBeGreaterThan(1000);

  const first = workers.spawn();
  const r = await t.request("POST", "/v1/ingest", {
    key: tenant.key,
    body: { agent_id: "chaos", text },
  });
  expect(r.status, show(r)).toBe(202);
  const stored = () =>
    withTenant(
      t.deps.db,
      tenant.orgId,
      async (tx) => (await tx`SELECT count(*)::int AS n FROM ingest_chunks`)[0]!.n as number,
    );
  await eventually(
    async () => ((await stored()) >= 128 ? true : null),
    "the first worker to store some chunks",
    60_000,
  );
  first.kill("SIGKILL");
  await first.exited;
  const atKill = await stored();
  expect(atKill).toBeLessThan(expected.length);

  workers.spawn();
  const job = await eventually(
    async () => {
      const view = await t.request("GET", `/v1/ingest/${r.body.job_id}`, { key: tenant.key });
      return view.body?.state === "succeeded" || view.body?.state === "failed" ? view.body : null;
    },
    "the second worker to finish the job",
    120_000,
  );
  expect(job.state, JSON.stringify(job.warnings)).toBe("succeeded");
  expect(job.memory_count).toBe(expected.length);
  expect(job.warnings.join(" ")).toMatch(/resumed after \d+ chunks/);

  const rows = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`
    SELECT c.chunk_index, m.content FROM ingest_chunks c JOIN memories m ON m.memory_id = c.memory_id ORDER BY c.chunk_index`,
  );
  expect(rows.map((row) => row.chunk_index)).toEqual(expected.map((_, i) => i));
  expect(rows.map((row) => row.content)).toEqual(expected);
  const [all] = await withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`SELECT count(DISTINCT memory_id)::int AS n FROM memories WHERE agent_id = 'chaos'`,
  );
  expect(all!.n).toBe(expected.length);
}, 240_000);
