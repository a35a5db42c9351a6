// Keeps a running job row alive for the watchdog while the work happens outside transactions
// (fetching, parsing, embedding), and publishes progress. If the row stops being this run's (the
// watchdog failed it, another delivery finished it) the run is aborted.
import type { Config } from "../../config/schema";
import type { Database, Tx } from "../../data/pools";
import { heartbeatJob } from "../../data/queries/jobs/jobs";
import { withTenant } from "../../data/with-tenant";
import type { Logger } from "../../observability/log";

export type Heartbeat = {
  readonly signal: AbortSignal;
  /** Merged into the progress the next beat writes. */
  progress: Record<string, unknown>;
  beat(): Promise<void>;
  /** A beat inside the caller's transaction (the batch whose counters it publishes). */
  beatIn(tx: Tx): Promise<void>;
  stop(): void;
};

export type HeartbeatPorts = {
  readonly db: Database;
  readonly config: Pick<Config, "INGEST_JOB_STUCK_SECONDS">;
  readonly log: Logger;
};

export function startHeartbeat(ports: HeartbeatPorts, orgId: string, jobId: string): Heartbeat {
  const controller = new AbortController();
  // A few beats per stuck interval, so one slow beat never makes a live job look dead.
  const everyMs = Math.min(10_000, Math.floor((ports.config.INGEST_JOB_STUCK_SECONDS * 1000) / 4));
  const heartbeat: Heartbeat = {
    signal: controller.signal,
    progress: { stage: "starting" },
    async beat() {
      const alive = await withTenant(ports.db, orgId, (tx) =>
        heartbeatJob(tx, jobId, heartbeat.progress),
      );
      if (!alive && !controller.signal.aborted)
        controller.abort(new Error(`job ${jobId} is no longer running here`));
    },
    beatIn: async (tx) => {
      await heartbeatJob(tx, jobId, heartbeat.progress);
    },
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    heartbeat.beat().catch((error) =>
      ports.log.warn({
        msg: "job heartbeat failed",
        job_id: jobId,
        err: (error as Error).message,
      }),
    );
  }, everyMs);
  return heartbeat;
}
