// CPU time spent by this process (the app and the bench client) and by one database's backends,
// read from process.cpuUsage() and /proc/<pid>/schedstat: a request's CPU cost does not grow with
// the load from other work on the machine, where its latency does. Linux only; elsewhere every
// reading is NaN.
import { readFileSync } from "node:fs";
import type postgres from "postgres";

export type CpuReading = { appMs: number; dbMs: number };

/** Nanoseconds on a CPU of one process, or NaN when /proc cannot say (gone, or not Linux). */
function schedNs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return NaN;
  }
}

/**
 * `owner` is a connection to the measured database (its own backend is left out). `refresh()`
 * re-reads the backend list (call it between requests: the pool opens connections lazily);
 * `start()` samples, and the sample's `stop()` is the CPU spent since, counting only backends
 * present at both ends.
 */
export async function cpuMeter(owner: postgres.Sql) {
  let pids: number[] = [];
  const refresh = async () => {
    const rows = await owner<Array<{ pid: number }>>`
      SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    pids = rows.map((r) => r.pid);
  };
  await refresh();
  const start = () => {
    const app = process.cpuUsage();
    const db = new Map(pids.map((pid) => [pid, schedNs(pid)]));
    return {
      stop(): CpuReading {
        const used = process.cpuUsage(app);
        let dbNs = 0;
        for (const [pid, before] of db) {
          const spent = schedNs(pid) - before;
          if (Number.isFinite(spent)) dbNs += spent;
        }
        return { appMs: (used.user + used.system) / 1000, dbMs: db.size ? dbNs / 1e6 : NaN };
      },
    };
  };
  return { refresh, start };
}
