// Shared by the ingest tests: an app with ingest on and a worker draining its own queue, and job
// polling.
import { startWorker, type RunningWorker } from "../../../src/queue/worker";
import { TEST_QUEUE_PREFIX, testApp, show, type TestApp } from "../../harness/app";
import { eventually } from "../../queue/wait";
import { BullmqQueue } from "../../../src/queue/bullmq-queue";

export type IngestApp = { t: TestApp; worker: RunningWorker; close(): Promise<void> };

export async function ingestApp(
  label: string,
  overrides: Record<string, unknown> = {},
): Promise<IngestApp> {
  const t = await testApp({
    INGEST_ENABLED: true,
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-${label}`,
    ...overrides,
  });
  const worker = await startWorker(t.deps);
  return {
    t,
    worker,
    async close() {
      await worker.close();
      if (t.deps.queue instanceof BullmqQueue) await t.deps.queue.queue.obliterate({ force: true });
      await t.close();
    },
  };
}

const FINAL = new Set(["succeeded", "failed", "rejected"]);

/** Polls GET /v1/ingest/{job_id} until the job settles, and returns its view. */
export async function settledJob(
  t: TestApp,
  key: string,
  jobId: string,
  timeoutMs = 30_000,
): Promise<any> {
  return eventually(
    async () => {
      const r = await t.request("GET", `/v1/ingest/${jobId}`, { key });
      if (r.status !== 200) throw new Error(show(r));
      return FINAL.has(r.body.state) ? r.body : null;
    },
    `ingest job ${jobId} to settle`,
    timeoutMs,
  );
}
