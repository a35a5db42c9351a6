// The capabilities a domain function may be handed. Each function declares the few it uses
// (Pick<Ports, "db" | "config">) and the composition root (src/app/build-deps.ts) passes
// them; the core never sees the Valkey client, the rate limiter or the key authenticator.
import type { Config } from "../../config/schema";
import type { Database } from "../../data/pools";
import type { VectorShapeHints } from "../../data/queries/recall/vector";
import type { TenantShare } from "../../data/tenant-share";
import type { AddressPolicy } from "../../lib/fetch/address-policy";
import type { Logger } from "../../observability/log";
import type { Metrics } from "../../observability/metrics";
import type { EmbeddingProvider } from "../../providers/embeddings/port";
import type { LlmProvider } from "../../providers/llm/port";
import type { ObjectStorage } from "../../providers/storage/port";
import type { WebSearchProvider } from "../../providers/websearch/port";
import type { Extractor } from "../forge/extract/types";
import type { ForgetSigner } from "../forget-proof/signer";
import type { EmbeddingGenerations } from "../memories/embedding-generations";
import type { QueryVectorCache } from "../recall/query-vectors";
import type { TaskQueue } from "./task-queue";

export type Ports = {
  readonly config: Config;
  readonly db: Database;
  /** Each tenant's bounded share of the database in HTTP requests (src/data/tenant-share.ts). */
  readonly tenantShare?: TenantShare;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** BullMQ on Valkey, or the in-process runner in embedded mode (no VALKEY_URL). */
  readonly queue: TaskQueue;
  readonly llm: LlmProvider;
  /**
   * The configured embedder (the generation a re-embed builds); stores and recall use
   * `embeddings.serving(org)`.
   */
  readonly embedder: EmbeddingProvider;
  /**
   * Which embedding generation serves each tenant, and the embedder of each (a re-embed keeps the
   * old one).
   */
  readonly embeddings: EmbeddingGenerations;
  /** Recent recall query embeddings of a remote provider (query-vectors.ts). */
  readonly queryVectors: QueryVectorCache;
  /** Recent VECTOR shape decisions per agent (vector-shapes.ts). */
  readonly vectorShapes: VectorShapeHints;
  /** null unless FORGET_PROOF_ENABLED. */
  readonly forgetSigner: ForgetSigner | null;
  /**
   * Distill's entity and relation extractor: local rules, or the metered LLM with a local fallback.
   */
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
