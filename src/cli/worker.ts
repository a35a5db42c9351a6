// `svc worker`: processes background tasks from Valkey until SIGTERM/SIGINT, then stops gracefully.
import { closeDeps, openDeps } from "../app/build-deps";
import { checkServingLogin } from "../app/database-roles";
import { installProcessGuards } from "../app/process-guards";
import { startWorker } from "../queue/worker";
import { exitAfterLogs } from "../observability/log";
import { configOrExit } from "./config";
import { serveMetrics } from "./metrics-server";

export async function runWorker(): Promise<void> {
  const config = configOrExit();
  if (!config.VALKEY_URL)
    throw new Error(
      "svc worker needs VALKEY_URL; without it (embedded mode) `svc serve` runs the worker itself",
    );
  const deps = await openDeps(config, { applicationName: "svc-worker" });
  installProcessGuards(deps.log);
  await checkServingLogin(deps.db);
  const worker = await startWorker(deps);
  const metricsServer =
    config.WORKER_METRICS_PORT > 0 ? serveMetrics(deps, config.WORKER_METRICS_PORT) : null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ msg: "worker shutting down", signal });
    await worker.close();
    await metricsServer?.stop();
    await closeDeps(deps);
    deps.log.info({ msg: "worker stopped" });
    exitAfterLogs(deps.log, 0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
