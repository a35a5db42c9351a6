// `svc worker` children for the kill -9 battery: each file spawns workers with its own settings,
// SIGKILLs one mid-job, and lets another pick the stalled job up.
import type { Subprocess } from "bun";
import { BUN, MAIN, serviceEnv } from "./process";

type Settings = Record<string, string>;

/**
 * A lock of 1 s checked every 0.5 s: a killed worker's job counts as stalled within about a second
 * instead of the 30 s defaults, so the second worker takes it over while the test waits. One job
 * at a time (the default is 4) so the kill lands in the one job the test watches.
 */
const FAST_STALL_DETECTION: Settings = {
  WORKER_LOCK_DURATION_MS: "1000",
  WORKER_STALLED_INTERVAL_MS: "500",
  WORKER_CONCURRENCY: "1",
};

export type ChaosWorkers = {
  /** Starts one worker; `extra` overrides the file's settings for this child only. */
  spawn: (extra?: Settings) => Subprocess;
  /** SIGKILLs every worker started and waits until each has exited. */
  killAll: () => Promise<void>;
};

/**
 * `settings` (the queue prefix, the database, the feature under test) may be a function when they
 * are only known once `beforeAll` has run; it is read at each spawn.
 */
export function chaosWorkers(settings: Settings | (() => Settings)): ChaosWorkers {
  const children: Subprocess[] = [];
  return {
    spawn(extra = {}) {
      const own = typeof settings === "function" ? settings() : settings;
      const child = Bun.spawn([BUN, MAIN, "worker"], {
        env: serviceEnv({ ...FAST_STALL_DETECTION, ...own, ...extra }),
        stdout: "ignore",
        stderr: "ignore",
      });
      children.push(child);
      return child;
    },
    async killAll() {
      for (const child of children) child.kill("SIGKILL");
      await Promise.all(children.map((child) => child.exited));
    },
  };
}
