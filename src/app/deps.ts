// Everything a handler or task may use, built once by the composition root and passed in.
import type Redis from "ioredis";
import type { Gates } from "../config/gates";
import type { Config } from "../config/schema";
import type { Database } from "../data/pools";
import type { TenantShare } from "../data/tenant-share";
import type { KeyAuthenticator } from "../domain/keys/authenticate";
import type { KeyCache } from "../domain/keys/key-cache";
import type { QueryVectorCache } from "../domain/recall/query-vectors";
import type { VectorShapeHints } from "../data/queries/recall-vector";
import type { BucketPolicy, RateLimiter } from "../domain/ratelimit/limiter";
import type { Logger } from "../observability/log";
import type { Metrics } from "../observability/metrics";
import type { Tracing } from "../observability/tracing";
import type { TaskQueue } from "../queue/port";
import type { LlmProvider } from "../providers/llm/port";
import type { EmbeddingProvider } from "../providers/embeddings/port";
import type { EmbeddingGenerations } from "../domain/memories/embedding-generations";
import type { ForgetSigner } from "../domain/forget-proof/signer";
import type { Extractor } from "../domain/forge/extract/types";
import type { AddressPolicy } from "../ingest/fetch/address-policy";
import type { ObjectStorage } from "../providers/storage/port";
import type { WebSearchProvider } from "../providers/websearch/port";

export type Deps = {
  readonly config: Config;
  readonly gates: Gates;
  readonly db: Database;
  /** Each tenant's bounded share of the database in HTTP requests (src/data/tenant-share.ts). */
  readonly tenantShare?: TenantShare;
  /** null in embedded mode (no VALKEY_URL). */
  readonly redis: Redis | null;
  readonly limiter: RateLimiter;
  readonly bucketPolicy: BucketPolicy;
  readonly authenticate: KeyAuthenticator;
  /** Verified keys this process may reuse; key changes invalidate it (key-cache.ts). */
  readonly keyCache: KeyCache;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** null unless OTEL_ENABLED. */
  readonly tracing: Tracing | null;
  /** BullMQ on Valkey, or the in-process runner in embedded mode (no VALKEY_URL). */
  readonly queue: TaskQueue;
  readonly llm: LlmProvider;
  /** The configured embedder (the generation a re-embed builds); stores and recall use `embeddings.serving(org)`. */
  readonly embedder: EmbeddingProvider;
  /** Which embedding generation serves each tenant, and the embedder of each (a re-embed keeps the old one). */
  readonly embeddings: EmbeddingGenerations;
  /** Recent recall query embeddings of a remote provider (query-vectors.ts). */
  readonly queryVectors: QueryVectorCache;
  /** Recent VECTOR shape decisions per agent (vector-shapes.ts). */
  readonly vectorShapes: VectorShapeHints;
  /** null unless FORGET_PROOF_ENABLED. */
  readonly forgetSigner: ForgetSigner | null;
  /** Distill's entity and relation extractor: local rules, or the metered LLM with a local fallback. */
  readonly extractor: Extractor;
  /** Where uploaded files wait for the ingest worker (STORAGE_BACKEND). */
  readonly storage: ObjectStorage;
  /** Which addresses URL ingest may reach (INGEST_FETCH_ALLOW_CIDRS). */
  readonly urlPolicy: AddressPolicy;
  /** Which addresses webhook deliveries may reach (WEBHOOKS_ALLOW_LOOPBACK). */
  readonly webhookPolicy: AddressPolicy;
  /** Budget-checked web search; null unless WEBSEARCH_API_KEY is set. */
  readonly websearch: WebSearchProvider | null;
};

export function bucketPolicyOf(config: Config): BucketPolicy {
  return {
    capacity: config.RATE_LIMIT_BURST,
    refillPerSecond: config.RATE_LIMIT_REQUESTS / config.RATE_LIMIT_WINDOW,
    limit: config.RATE_LIMIT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW,
  };
}
