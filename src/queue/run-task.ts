// Runs one delivery of a task for either queue backend: payload validation, logging, outcome
// metrics.
import { Value } from "@sinclair/typebox/value";
import type { Ports } from "../domain/ports/ports";
import type { TaskRunInfo } from "./define-task";
import { taskDefinition, UnknownTaskError } from "./registry";

/** A delivery that can never succeed (unknown task, malformed payload): fail it without retries. */
export class UnrecoverableTaskError extends Error {
  readonly unrecoverable = true;
}

export function createTaskRunner(deps: Ports) {
  return async function runTask(
    name: string,
    payload: unknown,
    info: TaskRunInfo & { finalAttempt: boolean },
  ): Promise<Record<string, unknown>> {
    let definition;
    try {
      definition = taskDefinition(name);
    } catch (error) {
      if (error instanceof UnknownTaskError) throw new UnrecoverableTaskError(error.message);
      throw error;
    }
    if (!Value.Check(definition.payload, payload)) {
      const first = [...Value.Errors(definition.payload, payload)][0];
      deps.metrics.jobOutcomes.inc({ task: name, outcome: "invalid" });
      throw new UnrecoverableTaskError(
        `invalid payload for ${name}: ${first?.path || "/"} ${first?.message ?? ""}`.trim(),
      );
    }
    const started = performance.now();
    try {
      const result = await definition.run(payload, deps, info);
      deps.metrics.jobOutcomes.inc({ task: name, outcome: "completed" });
      deps.log.debug({
        msg: "task completed",
        task: name,
        job_id: info.jobId,
        attempt: info.attempt,
        ms: Math.round(performance.now() - started),
        result,
      });
      return result;
    } catch (error) {
      const outcome = info.finalAttempt ? "failed" : "retried";
      deps.metrics.jobOutcomes.inc({ task: name, outcome });
      deps.log.warn({
        msg: `task ${outcome === "failed" ? "failed" : "failed, will retry"}`,
        task: name,
        job_id: info.jobId,
        attempt: info.attempt,
        err: (error as Error).message,
      });
      throw error;
    }
  };
}

export type TaskRunner = ReturnType<typeof createTaskRunner>;
