// A `svc worker` SIGKILLed in the middle of a subject erasure leaves only whole steps behind; a
// second worker resumes it, and the end equals one run: every version of the subject emptied once,
// counts equal to the rows, one certificate that verifies, the other subject untouched.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { verifyCertificate } from "../../src/domain/forget-proof/verify";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";

const SUBJECT = 4000;
const OTHERS = 500;
const prefix = `${TEST_QUEUE_PREFIX}-killerasure`;
let t: TestApp;

const workers = chaosWorkers({ SVC_QUEUE_PREFIX: prefix, FORGET_PROOF_ENABLED: "true" });

beforeAll(async () => {
  t = await testApp({ SVC_QUEUE_PREFIX: prefix, FORGET_PROOF_ENABLED: true });
});
afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
}, 30_000);

async function store(key: string, user: string, count: number) {
  for (let at = 0; at < count; at += 500) {
    const memories = Array.from({ length: Math.min(500, count - at) }, (_, i) => ({
      agent_id: "agent",
      content: `${user} note ${at + i}`,
      metadata: { user_id: user },
    }));
    const r = await t.request("POST", "/v1/memories/batch", { key, body: { memories } });
    expect(r.status, show(r)).toBe(201);
  }
}

test("kill -9 mid-erasure, then a second worker: the end equals one run", async () => {
  const tenant = await t.tenant("kill-erasure");
  await store(tenant.key, "u-gone", SUBJECT);
  await store(tenant.key, "u-kept", OTHERS);
  const first = workers.spawn();
  const started = await t.request("POST", "/v1/erasures", {
    key: tenant.key,
    body: { agent_id: "agent", subject: { key: "user_id", value: "u-gone" } },
  });
  expect(started.status, show(started)).toBe(202);
  const jobId = started.body.erasure_id as string;
  const progress = () =>
    withTenant(t.deps.db, tenant.orgId, async (tx) => {
      const [row] =
        await tx`SELECT state, coalesce((progress #>> '{counts,memories}')::int, 0) AS memories,
      (SELECT count(*)::int FROM memories WHERE erasure_job_id = ${jobId}) AS emptied
      FROM jobs WHERE job_id = ${jobId}`;
      return row as { state: string; memories: number; emptied: number };
    });
  await eventually(
    async () => (await progress()).memories >= 400,
    "the erasure to be under way",
    120_000,
  );
  first.kill("SIGKILL");
  await first.exited;

  const afterKill = await progress();
  expect(afterKill.state, "the killed worker stopped before finishing").toBe("running");
  expect(afterKill.emptied, "the saved counts are exactly the committed steps").toBe(
    afterKill.memories,
  );

  workers.spawn();
  const final = await eventually(
    async () => {
      const r = await t.request("GET", `/v1/erasures/${jobId}`, { key: tenant.key });
      return ["succeeded", "failed"].includes(r.body?.state) ? r.body : null;
    },
    "the resumed erasure to finish",
    240_000,
  );
  expect(final.state, JSON.stringify(final)).toBe("succeeded");
  expect(final.counts).toMatchObject({
    memories: SUBJECT,
    memory_versions: SUBJECT,
    memories_forgotten: SUBJECT,
  });

  const rows = await withTenant(t.deps.db, tenant.orgId, async (tx) => {
    const [row] = await tx`SELECT
      (SELECT count(*)::int FROM memories WHERE metadata ->> 'user_id' = 'u-gone') AS named,
      (SELECT count(*)::int FROM memories WHERE erasure_job_id = ${jobId} AND content = '') AS emptied,
      (SELECT count(*)::int FROM memories WHERE metadata ->> 'user_id' = 'u-kept' AND valid_to IS NULL) AS kept,
      (SELECT count(*)::int FROM forget_certificates) AS certificates`;
    return row as Record<string, number>;
  });
  expect(rows).toEqual({ named: 0, emptied: SUBJECT, kept: OTHERS, certificates: 1 });
  const cert = await t.request("GET", `/v1/forget/${final.cert_id}`, { key: tenant.key });
  expect(cert.body.items.length).toBe(SUBJECT);
  const keys = await t.request("GET", "/v1/forget/keys", { key: tenant.key });
  expect(await verifyCertificate(cert.text, keys.body.keys[0].public_key)).toEqual({
    ok: true,
    cert_id: final.cert_id,
  });
}, 400_000);
