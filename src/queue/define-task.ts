// The shape of one background task: its name, payload schema, retry policy and idempotent effect.
import type { Static, TSchema } from "@sinclair/typebox";
import type { Deps } from "../app/deps";
import type { TaskName } from "./port";

export type TaskRunInfo = { jobId: string; attempt: number };

export type TaskDefinition<S extends TSchema = TSchema> = {
  readonly name: TaskName;
  readonly payload: S;
  /** Total tries including the first; delivery is at least once, so `run` must be idempotent. */
  readonly attempts: number;
  /** First retry delay; doubles on every further retry. */
  readonly backoffMs: number;
  run(payload: Static<S>, deps: Deps, info: TaskRunInfo): Promise<Record<string, unknown>>;
};

export function defineTask<S extends TSchema>(definition: TaskDefinition<S>): TaskDefinition<S> {
  return definition;
}

export const backoffDelayMs = (
  definition: Pick<TaskDefinition, "backoffMs">,
  attemptsMade: number,
): number => definition.backoffMs * 2 ** Math.max(0, attemptsMade - 1);
