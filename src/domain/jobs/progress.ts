// A job row's progress: saved in the transaction of the batch it counts, with a heartbeat, so a
// poller's counters always match what committed and the watchdog sees the run alive.
import type { Tx } from "../../data/pools";
import { saveJobProgress as save } from "../../data/queries/jobs/jobs";

export const saveJobProgress = (
  tx: Tx,
  jobId: string,
  progress: Record<string, unknown>,
): Promise<void> => save(tx, jobId, progress);
