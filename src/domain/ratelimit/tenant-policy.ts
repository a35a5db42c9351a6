// The tenant bucket: one per tenant, beside each key's own bucket, so minting more keys buys no
// more throughput. Same window as the key bucket; its own rate and capacity, by default ten keys'
// worth, so raising the key limits raises the tenant's with them unless it is set.
import type { Config } from "../../config/schema";
import type { BucketPolicy } from "./limiter";

export const TENANT_DEFAULT_KEYS_WORTH = 10;

type TenantLimits = Pick<
  Config,
  | "RATE_LIMIT_TENANT_REQUESTS"
  | "RATE_LIMIT_TENANT_BURST"
  | "RATE_LIMIT_REQUESTS"
  | "RATE_LIMIT_BURST"
  | "RATE_LIMIT_WINDOW"
>;

export function tenantBucketPolicyOf(config: TenantLimits): BucketPolicy {
  const limit =
    config.RATE_LIMIT_TENANT_REQUESTS ?? TENANT_DEFAULT_KEYS_WORTH * config.RATE_LIMIT_REQUESTS;
  return {
    capacity: config.RATE_LIMIT_TENANT_BURST ?? TENANT_DEFAULT_KEYS_WORTH * config.RATE_LIMIT_BURST,
    refillPerSecond: limit / config.RATE_LIMIT_WINDOW,
    limit,
    windowSeconds: config.RATE_LIMIT_WINDOW,
  };
}

export const tenantBucketKey = (orgId: string) => `tenant:${orgId}`;
