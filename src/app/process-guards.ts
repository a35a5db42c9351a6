// Keeps long-running processes alive through database connection loss. postgres.js 3.4.9 can reject
// promises nobody holds when a backend dies mid-query (porsager/postgres#1066, #1208); the caller
// that awaited the query still receives its own error, so these orphans carry no information. Only
// connection-loss errors are absorbed; any other unhandled error still ends the process.
import { isDatabaseUnavailable } from "../data/errors";
import { exitAfterLogs, type Logger } from "../observability/log";

export function installProcessGuards(log: Logger): void {
  const absorb = (kind: string) => (reason: unknown) => {
    if (isDatabaseUnavailable(reason)) {
      log.warn({
        msg: "database connection lost (absorbed orphaned driver error)",
        kind,
        code: (reason as { code?: string }).code,
      });
      return;
    }
    log.fatal({ msg: `${kind}: exiting`, err: reason });
    exitAfterLogs(log, 1);
  };
  process.on("unhandledRejection", absorb("unhandled rejection"));
  process.on("uncaughtException", absorb("uncaught exception"));
}
