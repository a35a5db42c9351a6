// The tenant bucket: one per tenant, beside each key's own bucket, so minting more keys buys no more
// throughput. Same window as the key bucket; its own rate and capacity.
import type { Config } from "../../config/schema";
import type { BucketPolicy } from "./limiter";

export function tenantBucketPolicyOf(config: Pick<Config, "RATE_LIMIT_TENANT_REQUESTS" | "RATE_LIMIT_TENANT_BURST" | "RATE_LIMIT_WINDOW">): BucketPolicy {
  return {
    capacity: config.RATE_LIMIT_TENANT_BURST,
    refillPerSecond: config.RATE_LIMIT_TENANT_REQUESTS / config.RATE_LIMIT_WINDOW,
    limit: config.RATE_LIMIT_TENANT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW,
  };
}

export const tenantBucketKey = (orgId: string) => `tenant:${orgId}`;
