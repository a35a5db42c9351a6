// The beat: the periodic schedule of the spec's Background tasks table. On BullMQ it upserts job
// schedulers (idempotent by id, and BullMQ only produces a scheduler's next job when the previous
// one starts, so two beats never double-fire); in-process it runs timers that enqueue with a dedup
// id.
import type { Ports } from "../domain/ports/ports";
import type { Config } from "../config/schema";
import { BullmqQueue } from "./bullmq-queue";
import { InProcessQueue } from "./in-process-queue";
import type { TaskName } from "../domain/ports/task-queue";
import { TASKS, taskDefinition } from "./registry";

export type Schedule = { id: string; task: TaskName; everyMs: number };

/**
 * Re-upserting heals a Valkey that lost its data (no AOF, failover): at most this long without
 * schedules.
 */
const REASSERT_MS = 60_000;
/** After a failed upsert (Valkey down or restarting), the next try comes this soon. */
const RETRY_MS = 2_000;

/** The beat's entries, read from the task list: each periodic task carries its own schedule. */
export function schedulesOf(config: Config): Schedule[] {
  return [...TASKS.values()].flatMap((definition) => {
    const everyMs = definition.schedule?.everyMs(config) ?? null;
    return everyMs === null
      ? []
      : [{ id: definition.schedule!.id, task: definition.name, everyMs }];
  });
}

export type RunningBeat = { close(): Promise<void> };

export async function upsertSchedules(
  queue: BullmqQueue,
  schedules: Schedule[],
): Promise<{ upserted: string[]; removed: string[] }> {
  for (const s of schedules) {
    const definition = taskDefinition(s.task);
    await queue.queue.upsertJobScheduler(
      s.id,
      { every: s.everyMs },
      {
        name: s.task,
        data: {},
        opts: {
          attempts: definition.attempts,
          backoff: { type: "exponential", delay: definition.backoffMs },
          removeOnComplete: { count: 100 },
          removeOnFail: { count: 1000 },
        },
      },
    );
  }
  const wanted = new Set(schedules.map((s) => s.id));
  const removed: string[] = [];
  for (const existing of await queue.queue.getJobSchedulers()) {
    const key = existing.key ?? existing.id;
    if (key && !wanted.has(key)) {
      await queue.queue.removeJobScheduler(key);
      removed.push(key);
    }
  }
  return { upserted: schedules.map((s) => s.id), removed };
}

export async function startBeat(
  deps: Pick<Ports, "config" | "queue" | "log">,
): Promise<RunningBeat> {
  const { queue, log } = deps;
  const schedules = schedulesOf(deps.config);
  if (queue instanceof BullmqQueue) {
    // A Valkey that is down or restarting when the beat starts (or later) is tried again soon; the
    // beat never exits for it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    let asserted = false;
    const assert = async () => {
      let next = REASSERT_MS;
      try {
        const result = await upsertSchedules(queue, schedules);
        if (!asserted) log.info({ msg: "beat schedules upserted", ...result });
        asserted = true;
      } catch (error) {
        log.warn({ msg: "beat could not assert schedules", err: (error as Error).message });
        asserted = false;
        next = RETRY_MS;
      }
      if (!closed) timer = setTimeout(() => void assert(), next);
    };
    await assert();
    return {
      close: async () => {
        closed = true;
        clearTimeout(timer);
      },
    };
  }
  if (!(queue instanceof InProcessQueue))
    throw new Error(`no beat for queue backend ${queue.backend}`);
  const fire = (s: Schedule) =>
    queue
      .enqueue(s.task, {}, { jobId: `beat-${s.id}` })
      .catch((error) =>
        log.warn({ msg: "beat enqueue failed", task: s.task, err: (error as Error).message }),
      );
  const timers = schedules.map((s) => {
    void fire(s);
    return setInterval(() => void fire(s), s.everyMs);
  });
  log.info({
    msg: "in-process beat started",
    schedules: schedules.map((s) => `${s.task} every ${s.everyMs / 1000} s`),
  });
  return { close: async () => timers.forEach(clearInterval) };
}
