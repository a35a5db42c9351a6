// The shape of one background task: its name, payload schema, retry policy, idempotent effect and,
// for a periodic one, its place in the beat's schedule.
import type { Static, TSchema } from "@sinclair/typebox";
import type { Ports } from "../domain/ports/ports";
import type { Config } from "../config/schema";
import type { TaskName } from "../domain/ports/task-queue";

export type TaskRunInfo = { jobId: string; attempt: number };

/**
 * A periodic task's beat entry: the scheduler id, and its period (null: off in this configuration).
 */
export type TaskSchedule = { readonly id: string; everyMs(config: Config): number | null };

export type TaskDefinition<S extends TSchema = TSchema, N extends TaskName = TaskName> = {
  readonly name: N;
  readonly payload: S;
  /** Total tries including the first; delivery is at least once, so `run` must be idempotent. */
  readonly attempts: number;
  /** First retry delay; doubles on every further retry. */
  readonly backoffMs: number;
  /** Set for the tasks of the spec's Background tasks table that the beat fires. */
  readonly schedule?: TaskSchedule;
  run(payload: Static<S>, deps: Ports, info: TaskRunInfo): Promise<Record<string, unknown>>;
};

export function defineTask<S extends TSchema, N extends TaskName>(
  definition: TaskDefinition<S, N>,
): TaskDefinition<S, N> {
  return definition;
}

export const backoffDelayMs = (
  definition: Pick<TaskDefinition, "backoffMs">,
  attemptsMade: number,
): number => definition.backoffMs * 2 ** Math.max(0, attemptsMade - 1);
