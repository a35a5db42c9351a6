// Embedding in place: current versions stored without a vector (provider was down), or with a
// vector from another model or dimension, get one of `embedder`'s generation. Embeds outside the
// transaction; writes guard against races. svc.generate_embedding runs it through reembed.ts.
import type { Database } from "../../data/pools";
import { findStaleEmbeddings, setEmbeddings } from "../../data/queries/memories/maintenance";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { EmbeddingProvider } from "../../providers/embeddings/port";
import { sumOverOrgs } from "./for-each-org";

export type BackfillOptions = { limit: number; orgId?: string };

/** Where a tenant's walk over its memories without a vector starts. */
export const BACKFILL_WALK_START = "";

export type FillStep = { written: number; found: number; next: string };

/**
 * One batch for one tenant, from `after` on (BACKFILL_WALK_START: the beginning); `found` < `limit`
 * means nothing is left, `next` is where the following batch starts.
 */
export async function fillInPlace(
  db: Database,
  embedder: EmbeddingProvider,
  orgId: string,
  limit: number,
  after = BACKFILL_WALK_START,
): Promise<FillStep> {
  const { rows, lastUnembeddedId } = await withTenantRead(db, orgId, (tx) =>
    findStaleEmbeddings(tx, orgId, embedder.model, embedder.dimensions, after, limit),
  );
  if (rows.length === 0) return { written: 0, found: 0, next: lastUnembeddedId };
  const { vectors } = await embedder.embed(
    rows.map((r) => r.content),
    { orgId, patient: true },
  );
  const written = await withTenant(db, orgId, (tx) =>
    setEmbeddings(tx, rows, vectors, embedder.model, embedder.dimensions),
  );
  return { written, found: rows.length, next: lastUnembeddedId };
}

/**
 * Up to `limit` rows per tenant (all tenants, or only `orgId`); returns how many were written.
 * A provider failure propagates, so the task is retried with backoff.
 */
export async function backfillEmbeddings(
  db: Database,
  embedder: EmbeddingProvider,
  options: BackfillOptions,
): Promise<number> {
  const one = async (orgId: string) =>
    (await fillInPlace(db, embedder, orgId, options.limit)).written;
  return options.orgId ? one(options.orgId) : sumOverOrgs(db, one);
}
