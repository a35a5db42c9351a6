// Keeps a running job row alive for svc.ingest_watchdog while the work happens outside transactions
// (fetching, parsing, embedding), and publishes progress. If the row stops being this run's (the
// watchdog failed it, another delivery finished it) the run is aborted.
import type { Deps } from "../../../app/deps";
import { heartbeatJob } from "../../../data/queries/ingest-jobs";
import { withTenant } from "../../../data/with-tenant";

export type Heartbeat = {
  readonly signal: AbortSignal;
  /** Merged into the progress the next beat writes. */
  progress: Record<string, unknown>;
  beat(): Promise<void>;
  stop(): void;
};

export function startHeartbeat(
  deps: Pick<Deps, "db" | "config" | "log">,
  orgId: string,
  jobId: string,
): Heartbeat {
  const controller = new AbortController();
  // A few beats per stuck interval, so one slow beat never makes a live job look dead.
  const everyMs = Math.min(10_000, Math.floor((deps.config.INGEST_JOB_STUCK_SECONDS * 1000) / 4));
  const heartbeat: Heartbeat = {
    signal: controller.signal,
    progress: { stage: "starting" },
    async beat() {
      const alive = await withTenant(deps.db, orgId, (tx) =>
        heartbeatJob(tx, jobId, heartbeat.progress),
      );
      if (!alive && !controller.signal.aborted)
        controller.abort(new Error(`job ${jobId} is no longer running here`));
    },
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    heartbeat.beat().catch((error) =>
      deps.log.warn({
        msg: "ingest heartbeat failed",
        job_id: jobId,
        err: (error as Error).message,
      }),
    );
  }, everyMs);
  return heartbeat;
}
