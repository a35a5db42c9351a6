// The distill pipeline for one job row: claim it, sort the requested ids (distillable, already
// distilled, unknown, forgotten, another agent's), extract in batches through the Extractor port
// (outside any transaction), write each batch in its own transaction, then settle the row.
import type { Ports } from "../../ports/ports";
import {
  distilledVersions,
  latestVersions,
  type DistillCandidate,
} from "../../../data/queries/forge/distill";
import { claimJob } from "../../jobs/claim";
import { settleJob } from "../../jobs/settle";
import { withTenant } from "../../../data/with-tenant";
import { scheduleStatisticsRefresh } from "../../statistics/refresh-after-bulk-write";
import { AppError } from "../../../lib/errors";
import { effectiveRelations } from "../../graph/relation-types";
import type { Extractor, MemoryExtraction } from "../extract/types";
import { addCounts, countsFrom, type DistillCounts } from "./counts";
import { parseDistillPayload } from "./payload";
import { writeBatch, type BatchItem } from "./write-batch";

export type DistillRunDeps = Pick<Ports, "db" | "config" | "log" | "queue">;

const MAX_MESSAGES = 50;

export type DistillReport = {
  extractor: string;
  agent_id: string;
  done: number;
  total: number;
  counts: DistillCounts;
  memories: {
    requested: number;
    distilled: number;
    already_distilled: number;
    not_found: string[];
    forgotten: string[];
    other_agent: string[];
    changed: string[];
  };
  warnings: string[];
  errors: Array<{ memory_id: string; message: string }>;
};

type Plan = { todo: DistillCandidate[]; report: DistillReport };

async function plan(
  deps: DistillRunDeps,
  extractor: Extractor,
  orgId: string,
  jobId: string,
  agentId: string,
  ids: string[],
  previous: Record<string, unknown>,
): Promise<Plan> {
  return withTenant(deps.db, orgId, async (tx) => {
    const latest = await latestVersions(tx, orgId, ids);
    const byId = new Map(latest.map((v) => [v.memory_id, v]));
    const own = latest.filter((v) => v.live && v.agent_id === agentId);
    const prior = await distilledVersions(tx, orgId, own, extractor.name, jobId);
    const priorIds = new Set(prior.map((p) => p.memory_id));
    const mine = prior.filter((p) => p.job_id === jobId).length;
    const report: DistillReport = {
      extractor: extractor.name,
      agent_id: agentId,
      total: own.length,
      done: prior.length,
      counts: countsFrom(previous.counts),
      memories: {
        requested: ids.length,
        distilled: mine,
        already_distilled: prior.length - mine,
        not_found: ids.filter((id) => !byId.has(id)),
        forgotten: latest.filter((v) => !v.live).map((v) => v.memory_id),
        other_agent: latest.filter((v) => v.live && v.agent_id !== agentId).map((v) => v.memory_id),
        changed: [],
      },
      warnings: Array.isArray(previous.warnings)
        ? (previous.warnings as string[]).slice(0, MAX_MESSAGES)
        : [],
      errors: [],
    };
    return { todo: own.filter((v) => !priorIds.has(v.memory_id)), report };
  });
}

const push = <T>(list: T[], items: T[]) => {
  for (const item of items) if (list.length < MAX_MESSAGES) list.push(item);
};

export async function runDistillJob(
  deps: DistillRunDeps,
  extractor: Extractor,
  orgId: string,
  jobId: string,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const job = await withTenant(deps.db, orgId, (tx) => claimJob(tx, jobId));
  if (!job) return { job_id: jobId, state: "already-finished-or-missing" };
  const payload = parseDistillPayload(job.payload);
  if (job.kind !== "distill" || !payload) {
    await withTenant(deps.db, orgId, (tx) =>
      settleJob(tx, orgId, jobId, "failed", {
        error: "the job row is not a distill job with {agent_id, memory_ids}",
      }),
    );
    return { job_id: jobId, state: "failed" };
  }
  const relations = await withTenant(deps.db, orgId, (tx) => effectiveRelations(tx, orgId));
  const { todo, report } = await plan(
    deps,
    extractor,
    orgId,
    jobId,
    payload.agent_id,
    payload.memory_ids,
    job.progress ?? {},
  );
  const progress = () => report as unknown as Record<string, unknown>;

  for (let at = 0; at < todo.length; at += deps.config.DISTILL_BATCH_SIZE) {
    const chunk = todo.slice(at, at + deps.config.DISTILL_BATCH_SIZE);
    let extracted: MemoryExtraction[];
    try {
      const result = await extractor.extract(
        chunk.map((c) => ({
          memoryId: c.memory_id,
          version: c.version,
          agentId: c.agent_id,
          content: c.content,
          metadata: c.metadata,
          referenceTime: c.reference_time,
        })),
        { orgId, signal },
      );
      extracted = result.results;
      push(report.warnings, result.warnings);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // A refusal (budget spent, provider rejected) will not pass on retry: end the job, keep what
      // committed.
      await withTenant(deps.db, orgId, (tx) =>
        settleJob(tx, orgId, jobId, "failed", {
          result: progress(),
          error: `${error.slug}: ${error.detail}`,
        }),
      );
      return { job_id: jobId, state: "failed", error: error.slug };
    }
    const byVersion = new Map(extracted.map((r) => [`${r.memoryId}\u0000${r.version}`, r]));
    const items: BatchItem[] = [];
    for (const candidate of chunk) {
      const extraction = byVersion.get(`${candidate.memory_id}\u0000${candidate.version}`);
      if (extraction) items.push({ candidate, extraction });
      else
        push(report.errors, [
          {
            memory_id: candidate.memory_id,
            message: "the extractor returned no result for this memory; it was not distilled",
          },
        ]);
    }
    await withTenant(deps.db, orgId, (tx) =>
      writeBatch(
        tx,
        {
          orgId,
          jobId,
          agentId: payload.agent_id,
          extractor: extractor.name,
          relations,
          now: new Date(),
        },
        items,
        (outcome) => {
          report.done += chunk.length;
          report.counts = addCounts(report.counts, outcome.counts);
          report.memories.distilled += outcome.distilled.length;
          report.memories.already_distilled += outcome.concurrent.length;
          report.memories.changed.push(...outcome.changed);
          push(report.warnings, outcome.warnings);
          return progress();
        },
      ),
    );
  }
  await withTenant(deps.db, orgId, (tx) =>
    settleJob(tx, orgId, jobId, "succeeded", { result: progress() }),
  );
  await scheduleStatisticsRefresh(deps, orgId, "graph", report.done);
  return { job_id: jobId, state: "succeeded", ...report.counts };
}
