// svc.generate_embedding: embed current versions stored without a vector (provider was down) or with a
// vector from another model or dimension. Embeds outside the transaction; writes guard against races.
import type { Database } from "../../data/pools";
import { countStaleEmbeddings, findStaleEmbeddings, setEmbeddings } from "../../data/queries/memories-maintenance";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { EmbeddingProvider } from "../../providers/embeddings/port";
import { sumOverOrgs } from "./for-each-org";

export type BackfillOptions = { limit: number; orgId?: string };

/**
 * Embeds up to `limit` rows per tenant (all tenants, or only `orgId`) and returns how many were written.
 * A provider failure propagates, so the task is retried with backoff.
 */
export async function backfillEmbeddings(db: Database, embedder: EmbeddingProvider, options: BackfillOptions): Promise<number> {
  const one = async (orgId: string) => {
    const rows = await withTenantRead(db, orgId, (tx) => findStaleEmbeddings(tx, embedder.model, embedder.dimensions, options.limit));
    if (rows.length === 0) return 0;
    const { vectors } = await embedder.embed(rows.map((r) => r.content), { orgId });
    return withTenant(db, orgId, (tx) => setEmbeddings(tx, rows, vectors, embedder.model, embedder.dimensions));
  };
  return options.orgId ? one(options.orgId) : sumOverOrgs(db, one);
}

/** Current versions still waiting for a vector from the configured model (all tenants, or only `orgId`). */
export function staleEmbeddingCount(db: Database, embedder: EmbeddingProvider, orgId?: string): Promise<number> {
  const one = (id: string) => withTenantRead(db, id, (tx) => countStaleEmbeddings(tx, embedder.model, embedder.dimensions));
  return orgId ? one(orgId) : sumOverOrgs(db, one);
}
