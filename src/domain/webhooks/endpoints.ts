// A tenant's webhook endpoints: created (secret shown once), listed, read, deleted, secret rotated.
// Every change is audited in its own transaction; URLs pass URL ingest's address rules.
import {
  countLiveWebhookEndpoints,
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  type WebhookEndpointRow,
} from "../../data/queries/webhooks/endpoints";
import type { WebhookEventType } from "../../data/queries/webhooks/events";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { AddressPolicy } from "../../lib/fetch/address-policy";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import { conflict, notFound, validationFailed } from "../../lib/errors";
import { urlProblem } from "../ingest/url-rules";
import { looksLikeId, newId } from "../../lib/ids";
import { mintWebhookSecret } from "./signature";

/** Live endpoints one tenant may hold. */
export const MAX_ENDPOINTS_PER_TENANT = 20;

export type EndpointInput = {
  url: string;
  events: WebhookEventType[];
  include_content?: boolean;
  description?: string;
};

export function endpointView(row: WebhookEndpointRow) {
  const { deleted_at: _deleted, ...rest } = row;
  return rest;
}

export async function createEndpoint(
  db: Database,
  policy: AddressPolicy,
  actor: Actor,
  input: EndpointInput,
) {
  const problem = urlProblem(input.url, policy, "WEBHOOKS_ALLOW_LOOPBACK");
  if (problem) throw validationFailed([{ path: "url", message: problem }]);
  const secret = mintWebhookSecret();
  const row = await withTenant(db, actor.orgId, async (tx) => {
    if ((await countLiveWebhookEndpoints(tx)) >= MAX_ENDPOINTS_PER_TENANT) {
      throw conflict(
        `A tenant may have at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints; delete one first`,
      );
    }
    const inserted = await insertWebhookEndpoint(tx, {
      org_id: actor.orgId,
      endpoint_id: newId("wh"),
      url: input.url,
      events: [...new Set(input.events)],
      include_content: input.include_content ?? false,
      description: input.description ?? null,
      secret,
    });
    await recordAudit(tx, actor, {
      operation: "webhook.create",
      targetIds: [inserted.endpoint_id],
      detail: {
        url: inserted.url,
        events: inserted.events,
        include_content: inserted.include_content,
      },
    });
    return inserted;
  });
  return { ...endpointView(row), secret };
}

export async function readEndpoint(db: Database, actor: Actor, endpointId: string) {
  if (!looksLikeId("wh", endpointId)) throw notFound("Webhook endpoint");
  const row = await withTenantRead(db, actor.orgId, (tx) => findWebhookEndpoint(tx, endpointId));
  if (!row) throw notFound("Webhook endpoint");
  return endpointView(row);
}

export async function listEndpoints(
  db: Database,
  actor: Actor,
  limit: number,
  cursor: string | undefined,
) {
  const after = cursor
    ? decodeCursor(cursor, (v) => {
        if (typeof v[0] !== "string" || !looksLikeId("wh", v[0]))
          throw new Error("not a webhook cursor");
        return v[0];
      })
    : undefined;
  const rows = await withTenantRead(db, actor.orgId, (tx) =>
    listWebhookEndpoints(tx, limit + 1, after),
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(endpointView),
    next_cursor: rows.length > limit && last ? encodeCursor([last.endpoint_id]) : null,
  };
}

/** Soft delete; its pending deliveries are abandoned (dead, "endpoint deleted"). */
export async function deleteEndpoint(db: Database, actor: Actor, endpointId: string) {
  if (!looksLikeId("wh", endpointId)) throw notFound("Webhook endpoint");
  return withTenant(db, actor.orgId, async (tx) => {
    if (!(await findWebhookEndpoint(tx, endpointId, true))) throw notFound("Webhook endpoint");
    const { row, abandoned } = await deleteWebhookEndpoint(tx, endpointId);
    await recordAudit(tx, actor, {
      operation: "webhook.delete",
      targetIds: [endpointId],
      detail: { url: row.url, abandoned_deliveries: abandoned },
    });
    return { ...endpointView(row), deleted_at: row.deleted_at!, abandoned_deliveries: abandoned };
  });
}

/** A new secret, shown once; the previous one keeps signing for `overlapSeconds`. */
export async function rotateEndpointSecret(
  db: Database,
  actor: Actor,
  endpointId: string,
  overlapSeconds: number,
) {
  if (!looksLikeId("wh", endpointId)) throw notFound("Webhook endpoint");
  const secret = mintWebhookSecret();
  const row = await withTenant(db, actor.orgId, async (tx) => {
    if (!(await findWebhookEndpoint(tx, endpointId, true))) throw notFound("Webhook endpoint");
    const rotated = await rotateWebhookSecret(
      tx,
      endpointId,
      secret,
      new Date(Date.now() + overlapSeconds * 1000),
    );
    await recordAudit(tx, actor, {
      operation: "webhook.rotate_secret",
      targetIds: [endpointId],
      detail: { overlap_seconds: overlapSeconds },
    });
    return rotated;
  });
  return { ...endpointView(row), secret };
}
