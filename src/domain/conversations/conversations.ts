// Conversations: `open` from POST /v1/conversations until DELETE makes them `deleted` (soft,
// final). A deleted conversation stays readable, its turns stay listable and recallable; appends
// are refused.
import {
  findConversation,
  insertConversation,
  markConversationDeleted,
  type ConversationRow,
} from "../../data/queries/conversations/conversations";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Config } from "../../config/schema";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { checkMetadata } from "../metadata";
import { conflict, notFound } from "../../lib/errors";
import { looksLikeId, newId } from "../../lib/ids";

export function needsSummary(
  row: Pick<ConversationRow, "turns_since_summary" | "tokens_since_summary">,
  config: Config,
): boolean {
  return (
    row.turns_since_summary >= config.CONVERSATION_SUMMARY_TURNS ||
    row.tokens_since_summary >= config.CONVERSATION_SUMMARY_TOKENS
  );
}

export function conversationView(row: ConversationRow, config: Config) {
  const { turns_since_summary, tokens_since_summary, ...rest } = row;
  return {
    ...rest,
    state: row.deleted_at === null ? ("open" as const) : ("deleted" as const),
    turns_since_summary,
    needs_summary: needsSummary(row, config),
  };
}

/** Opens a conversation; its metadata meets the one metadata contract (a 422 otherwise). */
export async function openConversation(
  db: Database,
  config: Config,
  actor: Actor,
  input: { agent_id: string; title?: string; metadata?: unknown },
) {
  const metadata = checkMetadata(config, input.metadata);
  const row = await withTenant(db, actor.orgId, async (tx) => {
    const inserted = await insertConversation(tx, {
      org_id: actor.orgId,
      conversation_id: newId("conv"),
      agent_id: input.agent_id,
      title: input.title ?? null,
      metadata,
    });
    await recordAudit(tx, actor, {
      operation: "conversation.open",
      agentId: input.agent_id,
      targetIds: [inserted.conversation_id],
    });
    return inserted;
  });
  return conversationView(row, config);
}

export async function readConversation(
  db: Database,
  actor: Actor,
  conversationId: string,
): Promise<ConversationRow> {
  const row = looksLikeId("conv", conversationId)
    ? await withTenantRead(db, actor.orgId, (tx) => findConversation(tx, conversationId))
    : null;
  if (!row) throw notFound("Conversation");
  return row;
}

export async function deleteConversation(
  db: Database,
  config: Config,
  actor: Actor,
  conversationId: string,
) {
  if (!looksLikeId("conv", conversationId)) throw notFound("Conversation");
  const row = await withTenant(db, actor.orgId, async (tx) => {
    const current = await findConversation(tx, conversationId, true);
    if (!current) throw notFound("Conversation");
    if (current.deleted_at !== null)
      throw conflict(
        `Conversation ${conversationId} was already deleted at ${current.deleted_at.toISOString()}`,
      );
    const deleted = await markConversationDeleted(tx, conversationId);
    await recordAudit(tx, actor, {
      operation: "conversation.delete",
      agentId: deleted.agent_id,
      targetIds: [conversationId],
    });
    return deleted;
  });
  return conversationView(row, config);
}
