// recordAudit: the single way an audited operation leaves a trace. Call it with the transaction
// that performs the effect, so the audit row commits or rolls back with it.
import { insertPendingAudit } from "../../data/queries/audit/pending";
import type { Tx } from "../../data/pools";
import type { Actor } from "../actor";

export type AuditOperation =
  | "store"
  | "recall"
  | "forget"
  | "update"
  | "ingest"
  | "distill"
  | "refine"
  | "api_key.create"
  | "api_key.revoke"
  | "budget.update"
  | "session.start"
  | "session.end"
  | "conversation.open"
  | "conversation.delete"
  | "conversation.turn"
  | "forget.certificate"
  | "dataset.create"
  | "dataset.delete"
  | "feedback"
  | "relation_type.update"
  | "webhook.create"
  | "webhook.delete"
  | "webhook.rotate_secret"
  | "import"
  | "export"
  | "erasure";

export type AuditEntry = {
  operation: AuditOperation;
  agentId?: string | null;
  targetIds?: string[];
  detail?: Record<string, unknown>;
};

export async function recordAudit(
  tx: Tx,
  actor: Actor,
  entries: AuditEntry | AuditEntry[],
): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  await insertPendingAudit(
    tx,
    list.map((e) => ({
      org_id: actor.orgId,
      operation: e.operation,
      agent_id: e.agentId ?? null,
      key_id: actor.keyId,
      request_id: actor.requestId,
      target_ids: e.targetIds ?? [],
      detail: e.detail ?? {},
    })),
  );
}
