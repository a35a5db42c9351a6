// Embedding in place: current versions stored without a vector (provider was down), or with a
// vector from another model or dimension, get one of `embedder`'s generation. Embeds outside the
// transaction; writes guard against races. svc.generate_embedding runs it through reembed.ts.
import type { Database } from "../../data/pools";
import { findStaleEmbeddings, setEmbeddings } from "../../data/queries/memories-maintenance";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { EmbeddingProvider } from "../../providers/embeddings/port";
import { sumOverOrgs } from "./for-each-org";

export type BackfillOptions = { limit: number; orgId?: string };

/** One batch for one tenant; returns how many vectors were written. */
export async function fillInPlace(
  db: Database,
  embedder: EmbeddingProvider,
  orgId: string,
  limit: number,
): Promise<number> {
  const rows = await withTenantRead(db, orgId, (tx) =>
    findStaleEmbeddings(tx, embedder.model, embedder.dimensions, limit),
  );
  if (rows.length === 0) return 0;
  const { vectors } = await embedder.embed(
    rows.map((r) => r.content),
    { orgId, patient: true },
  );
  return withTenant(db, orgId, (tx) =>
    setEmbeddings(tx, rows, vectors, embedder.model, embedder.dimensions),
  );
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
  const one = (orgId: string) => fillInPlace(db, embedder, orgId, options.limit);
  return options.orgId ? one(options.orgId) : sumOverOrgs(db, one);
}
