// Every task the worker knows, by its spec name: one entry per name of TASK_NAMES (a missing or an
// extra one is a type error), each carrying its retry policy and its schedule.
import type { TaskDefinition } from "./define-task";
import type { TaskName } from "../domain/ports/task-queue";
import { auditDrainTask } from "./tasks/svc.audit_drain";
import { ensureAuditPartitionsTask } from "./tasks/svc.ensure_audit_partitions";
import { decayImportanceTask } from "./tasks/svc.decay_importance";
import { eraseSubjectTask } from "./tasks/svc.erase_subject";
import { enforceRetentionCapsTask } from "./tasks/svc.enforce_retention_caps";
import { forgeDistillTask } from "./tasks/svc.forge_distill";
import { generateEmbeddingTask } from "./tasks/svc.generate_embedding";
import { ingestRunTask } from "./tasks/svc.ingest_run";
import { ingestWatchdogTask } from "./tasks/svc.ingest_watchdog";
import { refineRunTask } from "./tasks/svc.refine_run";
import { refineSchedulerTickTask } from "./tasks/svc.refine_scheduler_tick";
import { sweepExpiredMemoriesTask } from "./tasks/svc.sweep_expired_memories";
import { workerPingTask } from "./tasks/svc.worker_ping";
import { deliverWebhooksTask } from "./tasks/svc.deliver_webhooks";
import { refreshStatisticsTask } from "./tasks/svc.refresh_statistics";

type TaskList = { readonly [N in TaskName]: TaskDefinition<any, N> };

const TASK_LIST: TaskList = {
  "svc.audit_drain": auditDrainTask,
  "svc.sweep_expired_memories": sweepExpiredMemoriesTask,
  "svc.decay_importance": decayImportanceTask,
  "svc.enforce_retention_caps": enforceRetentionCapsTask,
  "svc.ensure_audit_partitions": ensureAuditPartitionsTask,
  "svc.refine_run": refineRunTask,
  "svc.erase_subject": eraseSubjectTask,
  "svc.ingest_watchdog": ingestWatchdogTask,
  "svc.forge_distill": forgeDistillTask,
  "svc.ingest_run": ingestRunTask,
  "svc.generate_embedding": generateEmbeddingTask,
  "svc.worker_ping": workerPingTask,
  "svc.deliver_webhooks": deliverWebhooksTask,
  "svc.refresh_statistics": refreshStatisticsTask,
  "svc.refine_scheduler_tick": refineSchedulerTickTask,
};

export const TASKS: ReadonlyMap<TaskName, TaskDefinition<any>> = new Map(
  Object.values(TASK_LIST).map((d) => [d.name, d]),
);

export class UnknownTaskError extends Error {}

export function taskDefinition(name: string): TaskDefinition<any> {
  const definition = TASKS.get(name as TaskName);
  if (!definition) throw new UnknownTaskError(`unknown task ${name}`);
  return definition;
}
