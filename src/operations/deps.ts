// Everything a handler or task may use, built once by the composition root (src/app/) and
// passed in: the core's ports plus the edges' own (the Valkey client, the rate limiter, key
// authentication). Declared here, below HTTP and MCP, so the edges never import app/.
import type { Gates } from "../config/gates";
import type { Config } from "../config/schema";
import type { KeyAuthenticator } from "../domain/keys/authenticate";
import type { KeyCache } from "../domain/keys/key-cache";
import type { Ports } from "../domain/ports/ports";
import type { BucketPolicy } from "../domain/ratelimit/limiter";
import type { SpentMemory } from "../domain/ratelimit/spent-memory";
import type { Tracing } from "../observability/tracing";

/** The core's ports (src/domain/ports/ports.ts) plus what only the edges use. */
export type Deps = Ports & {
  readonly gates: Gates;
  /** null in embedded mode (no VALKEY_URL). */
  readonly redis: ValkeyConnection | null;
  /** Remembers empty buckets in-process until their next token (spent-memory.ts). */
  readonly limiter: SpentMemory;
  readonly bucketPolicy: BucketPolicy;
  readonly authenticate: KeyAuthenticator;
  /** Verified keys this process may reuse; key changes invalidate it (key-cache.ts). */
  readonly keyCache: KeyCache;
  /** null unless OTEL_ENABLED. */
  readonly tracing: Tracing | null;
};

/** The API's Valkey client as the edges use it: readiness pings it, shutdown quits it. */
export type ValkeyConnection = {
  ping(): Promise<string>;
  quit(): Promise<string>;
};

export function bucketPolicyOf(config: Config): BucketPolicy {
  return {
    capacity: config.RATE_LIMIT_BURST,
    refillPerSecond: config.RATE_LIMIT_REQUESTS / config.RATE_LIMIT_WINDOW,
    limit: config.RATE_LIMIT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW,
  };
}
