// One distill batch, one transaction: re-check under the memories' locks that each version is still
// current and not yet distilled, write memos, edges and provenance, retire what an older version of
// a PATCHed memory alone grounded, record the versions as distilled, audit, and save the job's
// progress. A kill -9 anywhere before COMMIT leaves nothing; a retry redoes exactly the batches
// that did not commit.
import {
  distilledVersions,
  latestVersions,
  recordDistilled,
  supersededSourceVersions,
  type DistillCandidate,
} from "../../../data/queries/forge/distill";
import { lockAgentGraphs } from "../../../data/queries/graph/locks";
import { lockMemories } from "../../../data/queries/memories/memories";
import type { Tx } from "../../../data/pools";
import { systemActor } from "../../actor";
import { recordAudit } from "../../audit/record";
import type { MemoryExtraction } from "../extract/types";
import { cascadeIntoGraph } from "../../graph/cascade";
import { saveJobProgress } from "../../jobs/progress";
import type { EffectiveRelation } from "../../graph/relation-types";
import { cleanExtraction } from "./clean-extraction";
import { zeroCounts, type DistillCounts } from "./counts";
import { resolveEntities, type EntityMention } from "./resolve-entities";
import { writeFacts, type FactMention } from "./write-facts";

export type BatchItem = { candidate: DistillCandidate; extraction: MemoryExtraction };

export type BatchContext = {
  orgId: string;
  jobId: string;
  agentId: string;
  extractor: string;
  relations: Map<string, EffectiveRelation>;
  now: Date;
};

export type BatchOutcome = {
  counts: DistillCounts;
  distilled: string[];
  /**
   * PATCHed, forgotten or expired since the job planned them: not distilled (distill again for the
   * new version).
   */
  changed: string[];
  /** Distilled meanwhile by another job. */
  concurrent: string[];
  warnings: string[];
};

export async function writeBatch(
  tx: Tx,
  ctx: BatchContext,
  items: BatchItem[],
  progressAfter: (outcome: BatchOutcome) => Record<string, unknown>,
): Promise<BatchOutcome> {
  const { orgId, agentId } = ctx;
  const ids = items.map((i) => i.candidate.memory_id);
  await lockMemories(tx, ids);
  await lockAgentGraphs(tx, [agentId]);

  const latest = new Map((await latestVersions(tx, orgId, ids)).map((v) => [v.memory_id, v]));
  const current = items.filter(({ candidate: c }) => {
    const now = latest.get(c.memory_id);
    return now?.live && now.version === c.version && now.agent_id === agentId;
  });
  const done = new Set(
    (
      await distilledVersions(
        tx,
        orgId,
        current.map((i) => i.candidate),
        ctx.extractor,
        ctx.jobId,
      )
    ).map((d) => d.memory_id),
  );
  const todo = current.filter((i) => !done.has(i.candidate.memory_id));
  const outcome: BatchOutcome = {
    counts: zeroCounts(),
    distilled: todo.map((i) => i.candidate.memory_id),
    warnings: [],
    changed: items.filter((i) => !current.includes(i)).map((i) => i.candidate.memory_id),
    concurrent: current
      .filter((i) => done.has(i.candidate.memory_id))
      .map((i) => i.candidate.memory_id),
  };

  const entities: EntityMention[] = [];
  const facts: FactMention[] = [];
  const found = new Map<string, { memos: number; edges: number }>();
  for (const { candidate: c, extraction } of todo) {
    const clean = cleanExtraction(extraction);
    outcome.warnings.push(...clean.warnings);
    for (const entity of clean.entities)
      entities.push({ entity, memoryId: c.memory_id, version: c.version });
    for (const relation of clean.relations)
      facts.push({
        relation,
        memoryId: c.memory_id,
        version: c.version,
        referenceTime: c.reference_time,
        extractor: extraction.extractor,
      });
    found.set(c.memory_id, {
      memos: clean.entities.length,
      edges: clean.relations.filter((r) => !r.negated).length,
    });
  }
  const resolved = await resolveEntities(tx, orgId, agentId, entities, ctx.now);
  const written = await writeFacts(tx, orgId, agentId, facts, resolved.memoOf, ctx.relations);
  // After the new version's facts are in: a fact both versions state keeps its edge (now sourced by
  // the new version).
  const revised = await supersededSourceVersions(
    tx,
    orgId,
    todo.map((i) => i.candidate),
  );
  const retired = await cascadeIntoGraph(
    tx,
    orgId,
    [agentId],
    revised.map((v) => ({ memory_id: v.memory_id, belowVersion: v.version })),
    "source_revised",
  );

  Object.assign(outcome.counts, {
    memos_created: resolved.created,
    memos_reused: resolved.reused,
    edges_created: written.created,
    edges_reinforced: written.reinforced,
    edges_superseded: written.superseded,
    edges_retired: retired.edges.length,
    memos_retired: retired.memos.length,
  });
  await recordDistilled(
    tx,
    orgId,
    ctx.jobId,
    todo.map(({ candidate: c, extraction }) => ({
      memory_id: c.memory_id,
      version: c.version,
      extractor: extraction.extractor,
      memos_found: found.get(c.memory_id)!.memos,
      edges_found: found.get(c.memory_id)!.edges,
    })),
  );
  if (todo.length > 0) {
    await recordAudit(tx, systemActor(orgId), {
      operation: "distill",
      agentId,
      targetIds: outcome.distilled,
      detail: {
        job_id: ctx.jobId,
        extractor: ctx.extractor,
        versions: todo.map((i) => ({
          memory_id: i.candidate.memory_id,
          version: i.candidate.version,
        })),
        ...outcome.counts,
      },
    });
  }
  await saveJobProgress(tx, ctx.jobId, progressAfter(outcome));
  return outcome;
}
