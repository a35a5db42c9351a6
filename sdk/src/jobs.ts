// A handle on an asynchronous job (ingest, distill, refine): read its status, or wait() for the
// end.
import { JobFailedError } from "./errors.js";
import { sleep, type CallOptions } from "./transport.js";

export type JobStatus = { job_id: string; state: string; error?: string | null };

export type WaitOptions = CallOptions & {
  /** First poll delay in ms (default 250); each next one is 1.5× longer, up to maxIntervalMs. */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** Give up (TimeoutError-like Error) after this many ms (default 5 minutes). */
  waitTimeoutMs?: number;
};

const TERMINAL = new Set(["succeeded", "failed", "rejected"]);

export class Job<S extends JobStatus> {
  constructor(
    readonly id: string,
    private readonly fetchStatus: (options?: CallOptions) => Promise<S>,
  ) {}

  status(options?: CallOptions): Promise<S> {
    return this.fetchStatus(options);
  }

  /**
   * Polls with backoff until the job ends; resolves with the final status, or throws
   * JobFailedError.
   */
  async wait(options: WaitOptions = {}): Promise<S> {
    let interval = options.intervalMs ?? 250;
    const maxInterval = options.maxIntervalMs ?? 5_000;
    const deadline = Date.now() + (options.waitTimeoutMs ?? 300_000);
    for (;;) {
      const status = await this.fetchStatus({
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      });
      if (TERMINAL.has(status.state)) {
        if (status.state !== "succeeded") throw new JobFailedError(status);
        return status;
      }
      if (Date.now() + interval > deadline)
        throw new Error(`job ${this.id} still ${status.state} after the wait timeout`);
      await sleep(interval, options.signal);
      interval = Math.min(maxInterval, Math.ceil(interval * 1.5));
    }
  }
}
