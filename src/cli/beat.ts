// `svc beat`: keeps the periodic job schedulers registered in Valkey. Run exactly one.
import { closeDeps, openDeps } from "../app/build-deps";
import { checkServingLogin } from "../app/database-roles";
import { installProcessGuards } from "../app/process-guards";
import { startBeat } from "../queue/beat";
import { exitAfterLogs } from "../observability/log";
import { configOrExit } from "./config";

export async function runBeat(): Promise<void> {
  const config = configOrExit();
  if (!config.VALKEY_URL)
    throw new Error(
      "svc beat needs VALKEY_URL; without it (embedded mode) `svc serve` runs the beat itself",
    );
  const deps = await openDeps(config, { applicationName: "svc-beat" });
  installProcessGuards(deps.log);
  await checkServingLogin(deps.db);
  const beat = await startBeat(deps);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ msg: "beat shutting down", signal });
    await beat.close();
    await closeDeps(deps);
    deps.log.info({ msg: "beat stopped" });
    exitAfterLogs(deps.log, 0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
