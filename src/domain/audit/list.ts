// Reading the chain: the public listing behind GET /v1/audit and the paged walk used by
// verification.
import {
  listAuditLog,
  readChainHead,
  readChainPage,
  type AuditLogRow,
} from "../../data/queries/audit/audit";
import type { Database } from "../../data/pools";
import { withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import { validationFailed } from "../../lib/errors";
import { endOfMillisecond, parseInstant } from "../../lib/instant";
import type { StoredChainRow } from "./verify-chain";
import { createChainVerifier, type ChainVerdict } from "./verify-chain";

export type AuditOrder = "asc" | "desc";
export type AuditQuery = {
  agent_id?: string;
  operation?: string;
  since?: string;
  until?: string;
  order?: AuditOrder;
  limit?: number;
  cursor?: string;
};

type AuditPosition = { seq: number; order: AuditOrder };

/** A cursor remembers its direction ([seq] ascending, [seq, "desc"] descending), so paging
 * continues
 * the way it started; an explicit order that contradicts the cursor is a 422 rather than a silent
 * jump. */
function readCursor(cursor: string): AuditPosition {
  return decodeCursor(cursor, (v) => {
    const [seq, order = "asc"] = v;
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 0)
      throw new Error("bad seq");
    if ((order !== "asc" && order !== "desc") || v.length > 2) throw new Error("bad order");
    return { seq, order };
  });
}

function positionOf(q: AuditQuery): AuditPosition {
  const order = q.order ?? "asc";
  if (q.cursor === undefined) return { seq: order === "asc" ? 0 : Number.MAX_SAFE_INTEGER, order };
  const position = readCursor(q.cursor);
  if (q.order !== undefined && q.order !== position.order) {
    throw validationFailed([
      { path: "/order", message: `must match the cursor's order (${position.order})` },
    ]);
  }
  return position;
}

function cursorAfter(seq: number, order: AuditOrder): string {
  return encodeCursor(order === "asc" ? [seq] : [seq, order]);
}

export function toStoredChainRow(r: AuditLogRow): StoredChainRow {
  return {
    org_id: r.org_id,
    seq: Number(r.seq),
    occurred_at: Number(r.occurred_us),
    operation: r.operation,
    agent_id: r.agent_id,
    key_id: r.key_id,
    request_id: r.request_id,
    target_ids: r.target_ids,
    detail: r.detail,
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}

function publicRow(r: AuditLogRow) {
  return {
    seq: Number(r.seq),
    occurred_at: r.occurred_at,
    occurred_at_us: Number(r.occurred_us),
    operation: r.operation,
    agent_id: r.agent_id,
    key_id: r.key_id,
    request_id: r.request_id,
    target_ids: r.target_ids,
    detail: r.detail as Record<string, unknown>,
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}

export async function listAudit(db: Database, actor: Actor, q: AuditQuery) {
  const limit = q.limit ?? 50;
  const { seq, order } = positionOf(q);
  const since = q.since !== undefined ? parseInstant(q.since, "since") : undefined;
  const until = q.until !== undefined ? parseInstant(q.until, "until") : undefined;
  if (since && until && until < since) {
    throw validationFailed([{ path: "/until", message: "must not be earlier than since" }]);
  }
  const rows = await withTenantRead(db, actor.orgId, (tx) =>
    listAuditLog(tx, {
      agentId: q.agent_id,
      operation: q.operation,
      since,
      before: until && endOfMillisecond(until),
      fromSeq: seq,
      order,
      limit: limit + 1,
    }),
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const more = rows.length > limit && last;
  return {
    items: page.map(publicRow),
    next_cursor: more ? cursorAfter(Number(last.seq), order) : null,
  };
}

/** Walks an org's whole chain in pages and checks it against the recorded head. */
export async function verifyOrgChain(
  db: Database,
  orgId: string,
  pageSize = 5000,
): Promise<ChainVerdict> {
  const verifier = createChainVerifier(orgId);
  let afterSeq = 0;
  for (;;) {
    const page = await withTenantRead(db, orgId, (tx) => readChainPage(tx, afterSeq, pageSize));
    for (const row of page) if (!verifier.push(toStoredChainRow(row))) return verifier.finish(null);
    if (page.length < pageSize) break;
    afterSeq = Number(page[page.length - 1]!.seq);
  }
  const head = await withTenantRead(db, orgId, readChainHead);
  return verifier.finish(head);
}
