// Every task the worker knows, by its spec name; the queue reads retry policies from here.
import type { TaskDefinition } from "./define-task";
import type { TaskName } from "./port";
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

const DEFINITIONS: TaskDefinition<any>[] = [
  auditDrainTask,
  sweepExpiredMemoriesTask,
  decayImportanceTask,
  enforceRetentionCapsTask,
  ensureAuditPartitionsTask,
  refineSchedulerTickTask,
  refineRunTask,
  eraseSubjectTask,
  ingestWatchdogTask,
  forgeDistillTask,
  ingestRunTask,
  generateEmbeddingTask,
  workerPingTask,
  deliverWebhooksTask,
  refreshStatisticsTask,
];

export const TASKS: ReadonlyMap<TaskName, TaskDefinition<any>> = new Map(
  DEFINITIONS.map((d) => [d.name, d]),
);

export class UnknownTaskError extends Error {}

export function taskDefinition(name: string): TaskDefinition<any> {
  const definition = TASKS.get(name as TaskName);
  if (!definition) throw new UnknownTaskError(`unknown task ${name}`);
  return definition;
}
