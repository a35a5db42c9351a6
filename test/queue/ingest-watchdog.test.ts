// svc.ingest_watchdog on ingest rows: a running row whose heartbeat stopped (its worker died and
// its queue message is gone) is re-queued and re-enqueued, and then completes exactly once with no
// duplicate memories; a row with a live heartbeat is left alone; a row that spent JOB_MAX_ATTEMPTS
// is failed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import type { Actor } from "../../src/domain/actor";
import { insertJobWithAudit } from "../../src/domain/ingest/submit";
import { ingestWatchdogTask } from "../../src/queue/tasks/svc.ingest_watchdog";
import type { Tenant } from "../harness/app";
import { documentWithDeepFact } from "../http/ingest/fixtures";
import { ingestApp, settledJob, type IngestApp } from "../http/ingest/helpers";

const PASS = { jobId: "watchdog-test", attempt: 1 };
let app: IngestApp;
let tenant: Tenant;
let actor: Actor;
beforeAll(async () => {
  app = await ingestApp("ingest-watchdog", {
    DISTILL_ENABLED: false,
    INGEST_CHUNK_CHARS: 400,
    JOB_MAX_ATTEMPTS: 3,
  });
  tenant = await app.t.tenant("ingest-watchdog");
  actor = { orgId: tenant.orgId, keyId: tenant.keyId, requestId: null, role: "system" };
});
afterAll(() => app.close());

/**
 * A job row as a worker killed mid-run leaves it: running, attempts spent, heartbeat `staleSeconds`
 * old, no queue message.
 */
async function orphanedRow(
  agentId: string,
  text: string,
  attempts: number,
  staleSeconds: number,
): Promise<string> {
  return withTenant(app.t.deps.db, tenant.orgId, async (tx) => {
    const row = await insertJobWithAudit(tx, actor, {
      agentId,
      datasetId: null,
      source: { kind: "text", text },
    });
    await tx`UPDATE jobs SET state = 'running', attempts = ${attempts}, started_at = now() - make_interval(secs => ${staleSeconds}),
      heartbeat_at = now() - make_interval(secs => ${staleSeconds}) WHERE job_id = ${row.job_id}`;
    return row.job_id;
  });
}

const jobRow = (jobId: string) =>
  withTenant(
    app.t.deps.db,
    tenant.orgId,
    async (tx) =>
      (
        await tx<
          Array<{
            state: string;
            attempts: number;
            heartbeat_at: Date | null;
            error: string | null;
          }>
        >`SELECT state, attempts, heartbeat_at, error FROM jobs WHERE job_id = ${jobId}`
      )[0]!,
  );

const liveMemoryCount = (agentId: string) =>
  withTenant(app.t.deps.db, tenant.orgId, async (tx) =>
    Number(
      (
        await tx<
          Array<{ n: string }>
        >`SELECT count(*) AS n FROM memories WHERE agent_id = ${agentId} AND valid_to IS NULL`
      )[0]!.n,
    ),
  );

describe("svc.ingest_watchdog", () => {
  test("a stale ingest row is re-enqueued and completes once; a live one is untouched; an exhausted one fails", async () => {
    const stale = await orphanedRow("orphan", documentWithDeepFact(8), 1, 3600);
    const live = await orphanedRow("alive", "This job's worker is still heartbeating.", 1, 0);
    const exhausted = await orphanedRow("spent", "This job has used every attempt.", 3, 3600);
    const liveBefore = await jobRow(live);

    const first = (await ingestWatchdogTask.run({}, app.t.deps, PASS)) as {
      requeued: number;
      failed: number;
    };
    expect(first.requeued).toBeGreaterThanOrEqual(1);
    expect(first.failed).toBeGreaterThanOrEqual(1);

    const job = await settledJob(app.t, tenant.key, stale);
    expect(job, JSON.stringify(job)).toMatchObject({ state: "succeeded", attempts: 2 });
    expect(job.memory_count).toBeGreaterThan(1);
    expect(new Set(job.memory_ids).size).toBe(job.memory_count);
    expect(await liveMemoryCount("orphan")).toBe(job.memory_count);

    const liveAfter = await jobRow(live);
    expect(liveAfter).toMatchObject({ state: "running", attempts: 1 });
    expect(liveAfter.heartbeat_at?.getTime()).toBe(liveBefore.heartbeat_at?.getTime());
    expect(await jobRow(exhausted)).toMatchObject({
      state: "failed",
      attempts: 3,
      error: "abandoned by the watchdog after 3 attempts without finishing",
    });
    expect(await liveMemoryCount("spent")).toBe(0);

    // Another pass and a duplicate delivery change nothing: the finished row is not resurrected.
    await ingestWatchdogTask.run({}, app.t.deps, PASS);
    await app.t.deps.queue.enqueue("svc.ingest_run", { org_id: tenant.orgId, job_id: stale });
    await Bun.sleep(500);
    expect(await jobRow(stale)).toMatchObject({ state: "succeeded", attempts: 2 });
    expect(await liveMemoryCount("orphan")).toBe(job.memory_count);

    // Tidy: the simulated live row would otherwise be resurrected by a later pass.
    await withTenant(
      app.t.deps.db,
      tenant.orgId,
      (tx) => tx`UPDATE jobs SET state = 'failed', finished_at = now() WHERE job_id = ${live}`,
    );
  }, 60_000);
});
