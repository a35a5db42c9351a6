// The composition root: the only place that constructs infrastructure from configuration.
import { availableParallelism } from "node:os";
import Redis from "ioredis";
import { gatesOf } from "../config/gates";
import type { Config } from "../config/schema";
import { openEmbedded } from "../data/embedded";
import { openPostgres, type Database } from "../data/pools";
import { createTenantShare, type TenantShare } from "../data/tenant-share";
import { tenantBusy, tenantOverBudget } from "../lib/errors";
import { createKeyAuthenticator } from "../domain/keys/authenticate";
import { createKeyCache } from "../domain/keys/key-cache";
import { createQueryVectorCache } from "../domain/recall/query-vectors";
import { createVectorShapeHints } from "../domain/recall/vector-shapes";
import { createMemoryLimiter } from "../domain/ratelimit/memory-limiter";
import { rememberSpent } from "../domain/ratelimit/spent-memory";
import { createValkeyLimiter } from "../valkey/rate-limiter";
import { createLogger, type Logger } from "../observability/log";
import { createMetrics } from "../observability/metrics";
import { createTracing } from "../observability/tracing";
import { BullmqQueue } from "../queue/bullmq-queue";
import { InProcessQueue } from "../queue/in-process-queue";
import { selectLlm } from "../providers/llm/select";
import {
  embedderResolver,
  selectEmbedder,
  selectPreviousEmbedder,
} from "../providers/embeddings/select";
import { createEmbeddingGenerations } from "../domain/memories/embedding-generations";
import { createUsageMeter } from "../domain/budgets/meter";
import { meteredEmbedder, meteredLlm } from "../providers/metered";
import { createForgetSigner } from "../domain/forget-proof/signer";
import { selectExtractor } from "../domain/forge/extract/select";
import { createAddressPolicy } from "../lib/fetch/address-policy";
import { selectStorage } from "../providers/storage/select";
import { selectWebSearch } from "../providers/websearch/select";
import { meteredWebSearch } from "../providers/websearch/metered";
import type { EmbeddingProvider } from "../providers/embeddings/port";
import { bucketPolicyOf, type Deps } from "../operations/deps";

function openServerDatabase(config: Config, applicationName: string): Database {
  if (!config.DATABASE_URL)
    throw new Error(
      "embedded mode (no DATABASE_URL): open the database with openDatabase() and pass it in",
    );
  return openPostgres(config.DATABASE_URL, config.DATABASE_READ_URL, {
    max: config.DATABASE_POOL_MAX,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    applicationName,
  });
}

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite database in SVC_DATA_DIR. */
export async function openDatabase(config: Config, applicationName: string): Promise<Database> {
  if (config.DATABASE_URL) return openServerDatabase(config, applicationName);
  return openEmbedded(config.SVC_DATA_DIR, {
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    applicationName,
  });
}

/**
 * API-side Valkey client: fails fast (no offline queue) so a Valkey outage never stalls a request.
 */
export function openApiRedis(url: string, log: Logger): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: 500,
    connectTimeout: 2000,
  });
  let lastLogged = 0;
  redis.on("error", (error) => {
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    log.warn({ msg: "valkey connection error", err: error.message });
  });
  return redis;
}

/**
 * Sized from the connections this process really has (embedded mode serves every request on one)
 * and, for heavy work, from the database's cores: a heavy query keeps a core busy for seconds, so
 * one tenant's heavy work holds at most half of them at once, and on average its share of them.
 */
export function tenantShareOf(config: Config, db: Pick<Database, "kind">): TenantShare {
  const pool = db.kind === "embedded" ? 1 : config.DATABASE_POOL_MAX;
  const cores = config.DATABASE_CPU_CORES ?? availableParallelism();
  const heavy = Math.min(Math.floor(cores / 2), Math.floor(pool / 5));
  return createTenantShare(
    {
      perTenant: config.TENANT_DB_CONCURRENCY ?? Math.max(1, Math.floor(pool / 2)),
      heavyPerTenant: config.TENANT_HEAVY_CONCURRENCY ?? Math.max(1, heavy),
      waitMs: config.TENANT_DB_WAIT_MS,
      heavyMsPerSecond: config.TENANT_HEAVY_CPU_SHARE * cores * 1000,
    },
    tenantBusy,
    tenantOverBudget,
  );
}

export type BuildOptions = { applicationName?: string; db?: Database; log?: Logger };

export function buildDeps(config: Config, options: BuildOptions = {}): Deps {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const db = options.db ?? openServerDatabase(config, options.applicationName ?? "svc");
  const meter = createUsageMeter({ db, config });
  const meterEmbedder = (e: EmbeddingProvider) => meteredEmbedder(e, meter);
  const embedder = meterEmbedder(selectEmbedder(config));
  const previous = selectPreviousEmbedder(config);
  const embeddings = createEmbeddingGenerations(
    db,
    embedder,
    embedderResolver(embedder, previous && meterEmbedder(previous), meterEmbedder),
  );
  const metrics = createMetrics({ transactionsInFlight: () => db.stats.inFlight });
  const redis = config.VALKEY_URL ? openApiRedis(config.VALKEY_URL, log) : null;
  const limiter = rememberSpent(
    redis
      ? createValkeyLimiter(redis, () => metrics.rateLimitFallbacks.inc())
      : createMemoryLimiter(),
  );
  const queue = config.VALKEY_URL
    ? new BullmqQueue(config.VALKEY_URL, config.SVC_QUEUE_PREFIX, log)
    : new InProcessQueue(config.WORKER_CONCURRENCY);
  metrics.dbPoolSize.set({ pool: "primary" }, config.DATABASE_POOL_MAX);
  const llm = meteredLlm(selectLlm(config), meter);
  const webSearch = selectWebSearch(config);
  const keyCache = createKeyCache(config.API_KEY_CACHE_TTL_MS, { db, log });
  return {
    config,
    gates: gatesOf(config),
    db,
    tenantShare: tenantShareOf(config, db),
    redis,
    limiter,
    bucketPolicy: bucketPolicyOf(config),
    authenticate: createKeyAuthenticator(db, config.SVC_API_KEY, keyCache),
    keyCache,
    log,
    metrics,
    tracing: createTracing(config),
    queue,
    llm,
    embedder,
    embeddings,
    queryVectors: createQueryVectorCache(),
    vectorShapes: createVectorShapeHints(),
    forgetSigner: config.FORGET_PROOF_ENABLED ? createForgetSigner(config, db) : null,
    extractor: selectExtractor(config, llm),
    storage: selectStorage(config),
    urlPolicy: createAddressPolicy(config.INGEST_FETCH_ALLOW_CIDRS),
    webhookPolicy: createAddressPolicy(config.WEBHOOKS_ALLOW_LOOPBACK ? LOOPBACK_CIDRS : undefined),
    websearch: webSearch && meteredWebSearch(webSearch, meter),
  };
}

/** What WEBHOOKS_ALLOW_LOOPBACK adds to the public addresses webhooks may reach. */
const LOOPBACK_CIDRS = "127.0.0.0/8,::1/128";

/**
 * buildDeps for processes that may run embedded: opens the database first (PGlite needs async
 * start-up).
 */
export async function openDeps(config: Config, options: BuildOptions = {}): Promise<Deps> {
  const db = options.db ?? (await openDatabase(config, options.applicationName ?? "svc"));
  return buildDeps(config, { ...options, db });
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.queue.close();
  await Promise.allSettled([deps.db.close(), deps.redis?.quit(), deps.tracing?.shutdown()]);
}
