// Samples the queue's job counts into the svc_queue_jobs gauge, so /metrics shows depth in every
// process.
import type { Ports } from "../domain/ports/ports";
import { BullmqQueue } from "./bullmq-queue";
import { InProcessQueue } from "./in-process-queue";

const SAMPLE_MS = 5000;

export function startQueueDepthSampler(deps: Pick<Ports, "queue" | "metrics" | "log">): {
  stop(): void;
} {
  const { queue, metrics, log } = deps;
  const sample = async () => {
    if (!(queue instanceof BullmqQueue) && !(queue instanceof InProcessQueue)) return;
    try {
      for (const [state, n] of Object.entries(await queue.counts()))
        metrics.queueDepth.set({ state }, n);
    } catch (error) {
      log.debug({ msg: "queue depth sample failed", err: (error as Error).message });
    }
  };
  void sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return { stop: () => clearInterval(timer) };
}
