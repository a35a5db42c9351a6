// A process that logs and exits (svc worker, beat and serve on SIGTERM, the crash guard) must not
// lose its last lines: pino's asynchronous destination calls a flush callback at once even while a
// write is still in flight, and exiting there dropped "worker stopped" from a worker's output about
// one run in three.
import { expect, test } from "bun:test";
import path from "node:path";
import { BUN } from "../harness/process";

const LOG_MODULE = path.resolve(import.meta.dir, "../../src/observability/log.ts");

test("exitAfterLogs writes every line logged before it, through a pipe, then exits with the code", async () => {
  // The shape of a shutdown: lines between awaits, the last one right before the exit. With the old
  // flush-callback exit the last line went missing in about one run of six on this machine.
  const script = `
    const { createLogger, exitAfterLogs } = await import(${JSON.stringify(LOG_MODULE)});
    const log = createLogger("info");
    for (let i = 0; i < 200; i++) log.info({ msg: "line", i, pad: "x".repeat(300) });
    await Bun.sleep(10);
    log.info({ msg: "shutting down" });
    await Bun.sleep(2);
    log.info({ msg: "the last line" });
    exitAfterLogs(log, 3);`;
  const runs = await Promise.all(
    Array.from({ length: 24 }, async () => {
      const child = Bun.spawn([BUN, "-e", script], { stdout: "pipe", stderr: "pipe" });
      const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
      const lines = out.trim().split("\n");
      return { code, count: lines.length, last: JSON.parse(lines.at(-1)!).msg as string };
    }),
  );
  expect(runs.filter((r) => r.code !== 3 || r.count !== 202 || r.last !== "the last line")).toEqual(
    [],
  );
}, 60_000);
