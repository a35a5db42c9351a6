// PATCH: close the current version and insert version + 1, serialised per memory so concurrent
// PATCHes produce contiguous versions and never two current rows.
import type { Ports } from "../ports/ports";
import {
  findLatestVersion,
  lockMemories,
  supersedeVersion,
  type VersionChanges,
} from "../../data/queries/memories/memories";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { recordMemoryEvent } from "../webhooks/record-event";
import { notFound, validationFailed, type FieldProblem } from "../../lib/errors";
import { sha256Bytes } from "../../lib/hash";
import { looksLikeId } from "../../lib/ids";
import { embedOrDefer, type EmbedDeps } from "./embed-or-defer";
import { metadataProblem } from "../metadata";
import { unstorableReason } from "../../lib/validation/input-walk";
import { EVENT_TIME_MESSAGE, parseEventTime, roundImportance } from "./prepare";
import { assertLive } from "./read";
import { toRecord, type MemoryRecord } from "./types";

export type MemoryPatch = {
  content?: string;
  metadata?: unknown;
  importance?: number;
  occurred_at?: string;
};

export async function patchMemory(
  deps: Pick<Ports, "db" | "config"> & EmbedDeps,
  actor: Actor,
  memoryId: string,
  patch: MemoryPatch,
): Promise<MemoryRecord> {
  if (!looksLikeId("mem", memoryId)) throw notFound(`Memory ${memoryId}`);
  const occurredAt = checkPatch(deps.config, patch);

  // The provider call happens before the transaction so no row lock is held across the network.
  const embedded =
    patch.content !== undefined ? await embedOrDefer(deps, actor.orgId, [patch.content]) : null;

  return withTenant(deps.db, actor.orgId, async (tx) => {
    await lockMemories(tx, [memoryId]);
    const current = assertLive(await findLatestVersion(tx, memoryId), memoryId);
    const contentChanged = patch.content !== undefined && patch.content !== current.content;
    const changes: VersionChanges = {
      content: contentChanged ? patch.content! : null,
      content_hash: contentChanged ? sha256Bytes(patch.content!) : null,
      metadata: (patch.metadata as Record<string, unknown> | undefined) ?? null,
      importance: patch.importance === undefined ? null : roundImportance(patch.importance),
      occurred_at: occurredAt,
      ...(contentChanged && embedded
        ? {
            embedding: embedded.ok
              ? { vector: embedded.vectors[0]!, model: embedded.model, dims: embedded.dims }
              : { vector: null, model: null, dims: null },
          }
        : {}),
    };
    const next = await supersedeVersion(tx, memoryId, current.version, changes);
    await recordAudit(tx, actor, {
      operation: "update",
      agentId: next.agent_id,
      targetIds: [memoryId],
      detail: {
        version: next.version,
        previous_version: current.version,
        fields: Object.keys(patch).sort(),
      },
    });
    await recordMemoryEvent(tx, actor.orgId, "memory.updated", [next], {
      previous_version: current.version,
    });
    return toRecord(next);
  });
}

/** Every problem at once as a 422; returns the parsed event time (null when not being changed). */
function checkPatch(config: Ports["config"], patch: MemoryPatch): Date | null {
  const problems: FieldProblem[] = [];
  if (
    patch.content === undefined &&
    patch.metadata === undefined &&
    patch.importance === undefined &&
    patch.occurred_at === undefined
  ) {
    problems.push({
      path: "",
      message: "must give at least one of content, metadata, importance, occurred_at",
    });
  }
  const occurredAt = patch.occurred_at === undefined ? null : parseEventTime(patch.occurred_at);
  if (patch.occurred_at !== undefined && !occurredAt)
    problems.push({ path: "occurred_at", message: EVENT_TIME_MESSAGE });
  if (patch.content !== undefined) {
    const unstorable = unstorableReason(patch.content);
    if (unstorable) problems.push({ path: "content", message: unstorable });
    if (patch.content.trim().length === 0)
      problems.push({ path: "content", message: "must contain at least one non-space character" });
    if (patch.content.length > config.MEMORY_CONTENT_MAX_CHARS)
      problems.push({
        path: "content",
        message: `must be at most ${config.MEMORY_CONTENT_MAX_CHARS} characters`,
      });
  }
  const metadata = patch.metadata === undefined ? null : metadataProblem(config, patch.metadata);
  if (metadata) problems.push({ path: "metadata", message: metadata });
  if (problems.length > 0) throw validationFailed(problems);
  return occurredAt;
}
