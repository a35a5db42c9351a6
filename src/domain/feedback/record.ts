// POST /v1/feedback: a -1 / 0 / +1 signal on one memory or one graph edge of the caller's tenant,
// stored pending. Nothing is rewritten here: refine's reweight pass drains pending signals into
// edge weights and memory importance (docs/refine.md).
import type { Database } from "../../data/pools";
import {
  insertFeedback,
  findEdgeTarget,
  type FeedbackRow,
} from "../../data/queries/feedback/feedback";
import { findLatestVersion } from "../../data/queries/memories/memories";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { gone, notFound, validationFailed, type FieldProblem } from "../../lib/errors";
import { looksLikeId, newId } from "../../lib/ids";

export type FeedbackInput = {
  signal: number;
  memory_id?: string;
  edge_id?: string;
  note?: string;
  agent_id?: string;
};

export type FeedbackRecord = Omit<FeedbackRow, "key_id"> & { state: "pending" | "applied" };

function check(input: FeedbackInput): { kind: "memory" | "edge"; id: string } {
  const problems: FieldProblem[] = [];
  if ((input.memory_id === undefined) === (input.edge_id === undefined))
    problems.push({ path: "/memory_id", message: "give exactly one of memory_id or edge_id" });
  if (problems.length > 0) throw validationFailed(problems);
  return input.memory_id !== undefined
    ? { kind: "memory", id: input.memory_id }
    : { kind: "edge", id: input.edge_id! };
}

export async function recordFeedback(
  db: Database,
  actor: Actor,
  input: FeedbackInput,
): Promise<FeedbackRecord> {
  const target = check(input);
  const label = target.kind === "memory" ? `Memory ${target.id}` : `Edge ${target.id}`;
  if (!looksLikeId(target.kind === "memory" ? "mem" : "edge", target.id)) throw notFound(label);
  return withTenant(db, actor.orgId, async (tx) => {
    let agentId: string;
    if (target.kind === "memory") {
      const memory = await findLatestVersion(tx, target.id);
      if (!memory || (input.agent_id !== undefined && memory.agent_id !== input.agent_id))
        throw notFound(label);
      if (memory.deleted_at)
        throw gone(`${label} was forgotten; feedback on it would have no effect`);
      agentId = memory.agent_id;
    } else {
      const edge = await findEdgeTarget(tx, target.id);
      if (!edge || (input.agent_id !== undefined && edge.agent_id !== input.agent_id))
        throw notFound(label);
      if (edge.expired_at)
        throw gone(`${label} expired (${edge.expired_reason}); feedback only moves current edges`);
      agentId = edge.agent_id;
    }
    const row = await insertFeedback(tx, {
      org_id: actor.orgId,
      feedback_id: newId("fb"),
      agent_id: agentId,
      target_kind: target.kind,
      target_id: target.id,
      signal: input.signal,
      note: input.note ?? null,
      key_id: actor.keyId,
    });
    await recordAudit(tx, actor, {
      operation: "feedback",
      agentId,
      targetIds: [target.id],
      detail: { feedback_id: row.feedback_id, target_kind: target.kind, signal: input.signal },
    });
    const { key_id: _keyId, ...visible } = row;
    return { ...visible, state: "pending" };
  });
}
