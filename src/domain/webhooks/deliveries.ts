// An endpoint's delivery log, newest first, cursor-paginated.
import { listDeliveries } from "../../data/queries/webhooks/deliveries";
import { findWebhookEndpoint } from "../../data/queries/webhooks/endpoints";
import type { Database } from "../../data/pools";
import { withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import { notFound } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";

export async function endpointDeliveries(
  db: Database,
  actor: Actor,
  endpointId: string,
  limit: number,
  cursor: string | undefined,
) {
  if (!looksLikeId("wh", endpointId)) throw notFound("Webhook endpoint");
  const before = cursor
    ? decodeCursor(cursor, (v) => {
        if (typeof v[0] !== "string" || !looksLikeId("evt", v[0]))
          throw new Error("not a delivery cursor");
        return v[0];
      })
    : undefined;
  const rows = await withTenantRead(db, actor.orgId, async (tx) => {
    if (!(await findWebhookEndpoint(tx, endpointId))) throw notFound("Webhook endpoint");
    return listDeliveries(tx, endpointId, limit + 1, before);
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({
      ...row,
      next_attempt_at: row.state === "pending" ? row.next_attempt_at : null,
    })),
    next_cursor: rows.length > limit && last ? encodeCursor([last.event_id]) : null,
  };
}
