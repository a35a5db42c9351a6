// Which embedding generation serves each tenant (sql/0131), cached per process: recall embeds the
// query and stores embed new memories with that generation's embedder, which is the configured one
// except while a re-embed to the configured one is still running for the tenant.
import type { Database } from "../../data/pools";
import { readGeneration } from "../../data/queries/memories/embedding-generations";
import { withTenantRead } from "../../data/with-tenant";
import type { EmbeddingProvider } from "../../providers/embeddings/port";
import { createEmbeddingProgress, type EmbeddingProgress } from "./embedding-progress";
import type { Generation } from "./generation";

export type { Generation } from "./generation";

export type ServingGeneration = Generation & {
  /**
   * Null when this generation's provider is not configured (a previous server model without
   * EMBEDDING_PREVIOUS_*).
   */
  readonly embedder: EmbeddingProvider | null;
};

export interface EmbeddingGenerations {
  /** The configured embedder: the generation every tenant ends up on. */
  readonly configured: EmbeddingProvider;
  /**
   * The tenant's serving generation; cached for SERVING_CACHE_MS, so the hot path rarely reads the
   * database.
   */
  serving(orgId: string): Promise<ServingGeneration>;
  /** Drops the cached answer (after a switch in this process, or when recall saw it go stale). */
  forget(orgId: string): void;
  embedderFor(model: string, dims: number): EmbeddingProvider | null;
  /** Deployment-wide: tenants per serving generation and re-embed progress (readiness, metrics). */
  progress(): Promise<EmbeddingProgress>;
}

/**
 * A switch made by another process is seen within this time; recall also re-checks in its
 * transaction when VECTOR comes back empty (see recall.ts), so a stale entry never serves a wrong
 * answer.
 */
const SERVING_CACHE_MS = 5000;

export function createEmbeddingGenerations(
  db: Database,
  configured: EmbeddingProvider,
  resolve: (model: string, dims: number) => EmbeddingProvider | null,
): EmbeddingGenerations {
  const cache = new Map<string, { at: number; value: Promise<ServingGeneration> }>();
  const configuredGeneration: ServingGeneration = {
    model: configured.model,
    dims: configured.dimensions,
    embedder: configured,
  };

  async function load(orgId: string): Promise<ServingGeneration> {
    const row = await withTenantRead(db, orgId, readGeneration);
    if (
      !row ||
      (row.serving_model === configured.model && row.serving_dims === configured.dimensions)
    )
      return configuredGeneration;
    return {
      model: row.serving_model,
      dims: row.serving_dims,
      embedder: resolve(row.serving_model, row.serving_dims),
    };
  }

  return {
    configured,
    serving(orgId) {
      const now = Date.now();
      const hit = cache.get(orgId);
      if (hit && now - hit.at < SERVING_CACHE_MS) return hit.value;
      const value = load(orgId);
      cache.set(orgId, { at: now, value });
      value.catch(() => cache.delete(orgId));
      return value;
    },
    forget(orgId) {
      cache.delete(orgId);
    },
    embedderFor: resolve,
    progress: createEmbeddingProgress(db, { model: configured.model, dims: configured.dimensions }),
  };
}
