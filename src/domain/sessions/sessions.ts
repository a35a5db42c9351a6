// Sessions: `active` from POST /v1/sessions until POST …/end makes them `ended` (final; a second
// end is a 409). Each transition is audited.
import {
  findSession,
  insertSession,
  markSessionEnded,
  type SessionRow,
} from "../../data/queries/sessions/sessions";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { checkMetadata, type MetadataLimits } from "../metadata";
import { recordAudit } from "../audit/record";
import { conflict, notFound } from "../../lib/errors";
import { looksLikeId, newId } from "../../lib/ids";

const view = (s: SessionRow) => ({
  ...s,
  state: s.ended_at === null ? ("active" as const) : ("ended" as const),
});

/** `metadata` must meet the one metadata contract (a 422 at /metadata otherwise). */
export async function startSession(
  ports: { db: Database; config: MetadataLimits },
  actor: Actor,
  input: { agent_id: string; metadata?: unknown },
) {
  const metadata = checkMetadata(ports.config, input.metadata);
  const row = await withTenant(ports.db, actor.orgId, async (tx) => {
    const inserted = await insertSession(tx, {
      org_id: actor.orgId,
      session_id: newId("ses"),
      agent_id: input.agent_id,
      metadata,
    });
    await recordAudit(tx, actor, {
      operation: "session.start",
      agentId: input.agent_id,
      targetIds: [inserted.session_id],
    });
    return inserted;
  });
  return view(row);
}

export async function getSession(db: Database, actor: Actor, sessionId: string) {
  const row = looksLikeId("ses", sessionId)
    ? await withTenantRead(db, actor.orgId, (tx) => findSession(tx, sessionId))
    : null;
  if (!row) throw notFound("Session");
  return view(row);
}

export async function endSession(db: Database, actor: Actor, sessionId: string) {
  if (!looksLikeId("ses", sessionId)) throw notFound("Session");
  const row = await withTenant(db, actor.orgId, async (tx) => {
    const current = await findSession(tx, sessionId, true);
    if (!current) throw notFound("Session");
    if (current.ended_at !== null)
      throw conflict(`Session ${sessionId} already ended at ${current.ended_at.toISOString()}`);
    const ended = await markSessionEnded(tx, sessionId);
    await recordAudit(tx, actor, {
      operation: "session.end",
      agentId: ended.agent_id,
      targetIds: [sessionId],
    });
    return ended;
  });
  return view(row);
}
