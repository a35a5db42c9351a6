// The one forget path (API, TTL sweep, retention caps): close the current versions, mark them
// deleted, keep history, retire what the graph derived from them, tombstone the stored
// Idempotency-Key answers naming them, and audit, all in the caller's tenant transaction.
import { bytesToHex } from "@noble/hashes/utils.js";
import { tombstoneAnswersNaming } from "../../data/queries/idempotency/keys";
import { forgetCurrentVersions, lockMemories } from "../../data/queries/memories/memories";
import type { Tx } from "../../data/pools";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { recordMemoryEvent } from "../webhooks/record-event";
import { cascadeIntoGraph, type GraphRetirement } from "../graph/cascade";
import { looksLikeId } from "../../lib/ids";

export type ForgetReason = "api" | "ttl" | "retention" | "erasure";

export type ForgetResult = {
  forgotten: Array<{ memory_id: string; version: number; content_hash: string }>;
  /**
   * Unknown, malformed, another tenant's, already forgotten, or (with agentId) another agent's ids.
   */
  not_found: string[];
  /**
   * Graph rows retired because they were grounded only in these memories (docs/graph.md, "Forget").
   */
  derived: GraphRetirement;
};

export async function forgetMemories(
  tx: Tx,
  actor: Actor,
  memoryIds: string[],
  reason: ForgetReason,
  options: { agentId?: string } = {},
): Promise<ForgetResult> {
  const unique = [...new Set(memoryIds)];
  const wellFormed = unique.filter((id) => looksLikeId("mem", id));
  // Locks first: a PATCH committing meanwhile has then either finished (we close its new version)
  // or not begun.
  await lockMemories(tx, wellFormed);
  const rows =
    wellFormed.length > 0
      ? await forgetCurrentVersions(tx, wellFormed, options.agentId ?? null)
      : [];
  const forgottenIds = new Set(rows.map((r) => r.memory_id));
  const derived = await cascadeIntoGraph(
    tx,
    actor.orgId,
    rows.map((r) => r.agent_id),
    rows.map((r) => ({ memory_id: r.memory_id, belowVersion: null })),
    "source_forgotten",
  );
  // Idempotency-Key answers that carry the forgotten content become tombstones
  // (docs/idempotency.md).
  await tombstoneAnswersNaming(tx, [...forgottenIds]);

  const byAgent = new Map<string, typeof rows>();
  for (const row of rows) byAgent.set(row.agent_id, [...(byAgent.get(row.agent_id) ?? []), row]);
  if (rows.length > 0) {
    await recordAudit(
      tx,
      actor,
      [...byAgent].map(([agentId, list], index) => ({
        operation: "forget" as const,
        agentId,
        targetIds: list.map((r) => r.memory_id),
        detail: {
          reason,
          versions: list.map((r) => ({ memory_id: r.memory_id, version: r.version })),
          ...(index === 0 ? retiredCounts(derived) : {}),
        },
      })),
    );
  }
  await recordMemoryEvent(tx, actor.orgId, "memory.forgotten", rows, { reason });
  return {
    forgotten: rows.map((r) => ({
      memory_id: r.memory_id,
      version: r.version,
      content_hash: bytesToHex(r.content_hash),
    })),
    not_found: unique.filter((id) => !forgottenIds.has(id)),
    derived,
  };
}

/** Audit detail of the forget's first row: how many graph rows the whole forget retired. */
function retiredCounts(derived: GraphRetirement): Record<string, unknown> {
  if (derived.edges.length === 0 && derived.memos.length === 0) return {};
  return { graph_retired: { edges: derived.edges.length, memos: derived.memos.length } };
}
